import { readBody, readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { changeStation, terminalDetail } from "@/lib/server/terminals/views";
import { StationChange, TerminalDetail } from "@/lib/shared/api/attention";
import { DeviceSegment } from "@/lib/shared/api/params";

/** One terminal: its state and its latest records. */
export const GET = route<{ device: string }>("terminals.view", async ({ dashboard, params }) => {
  const { device } = readParams(params, DeviceSegment);
  return answer(TerminalDetail, await terminalDetail(dashboard.db, device));
});

/** A manager sets the terminal's station (null: back to the one its device id suggests). */
export const PUT = route<{ device: string }>(
  "terminals.manage",
  async ({ request, user, dashboard, params }) => {
    const { device } = readParams(params, DeviceSegment);
    const { station } = await readBody(request, StationChange);
    return answer(TerminalDetail, await changeStation(dashboard.db, user, device, station));
  },
);
