import { describe, expect, it } from "vitest";
import { buildNotice, isNextBannerLine, isReadyLine, isSimulatorChatter, readyBanner } from "./start-output";

/** What `next start` printed on 2026-11-25 (Next.js 16.4), then a line of the console's own. */
const NEXT_START = [
  "",
  "▲ Next.js 16.4.6",
  "- Local:         http://localhost:4310",
  "- Network:       http://192.0.2.2:4310",
  "- Experiments (use with caution):",
  "  · proxyClientMaxBodySize: 22020096",
  "",
  "✓ Starting...",
  "✓ Ready in 181ms",
  "✓ Running next.config.ts took 123ms",
  "[sync] this instance runs the sync worker",
];

describe("what npm start prints", () => {
  it("says what the first start is doing, and why a later one builds again", () => {
    expect(buildNotice(true)).toBe("Building the console — about 2 minutes, once.");
    expect(buildNotice(false)).toMatch(/^Rebuilding the console: a source file changed/);
  });

  it("drops Next's start banner, keeps the console's own lines, and knows when it is ready", () => {
    expect(NEXT_START.filter((line) => !isNextBannerLine(line))).toEqual([
      "[sync] this instance runs the sync worker",
    ]);
    expect(NEXT_START.filter(isReadyLine)).toEqual(["✓ Ready in 181ms"]);
    expect(isNextBannerLine("Error: listen EADDRINUSE: address already in use 127.0.0.1:4310")).toBe(false);
  });

  it("leaves out the simulator's commentary, not the Integration API's other lines", () => {
    expect(isSimulatorChatter("[integration-api] simulator: bar-03 offline for 26 min")).toBe(true);
    expect(isSimulatorChatter("[integration-api] simulator: gate-01 taken offline for 5 min")).toBe(true);
    expect(isSimulatorChatter("[integration-api] seeded the demo event in 9.1 s: {}")).toBe(false);
    expect(isSimulatorChatter('[integration-api] simulator stopped: {"events":326}')).toBe(false);
  });

  it("once ready: the address, where it listens and, in the sandbox, the demo logins", () => {
    const logins = [
      { role: "manager", username: "manager", password: "manager-demo-pass" },
      { role: "staff", username: "staff", password: "staff-demo-pass" },
    ];
    expect(
      readyBanner({ url: "http://localhost:4310", hostNote: "Listening on 127.0.0.1 only.", logins }),
    ).toEqual([
      "",
      "  Event operations console: http://localhost:4310",
      "  Listening on 127.0.0.1 only.",
      "  Demo logins (sandbox only):",
      "    manager    manager / manager-demo-pass",
      "    staff      staff / staff-demo-pass",
      "  Ctrl-C stops everything.",
      "",
    ]);
    const upstream = readyBanner({ url: "http://localhost:3000", hostNote: "Listening on every interface." });
    expect(upstream.join("\n")).not.toMatch(/Demo logins|password/);
  });
});
