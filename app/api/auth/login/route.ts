import { NextResponse } from "next/server";
import { z } from "zod";
import { homeFor } from "@/lib/permissions";
import { getDashboard } from "@/lib/server/dashboard";
import { assertSameOrigin, errorResponse, HttpError } from "@/lib/server/guard";
import { readSession } from "@/lib/server/session";
import { login } from "@/lib/server/users";

const Body = z.object({ username: z.string().trim().min(1).max(64), password: z.string().min(1).max(256) });

export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const parsed = Body.safeParse(await request.json().catch(() => null));
    if (!parsed.success) throw new HttpError(400, "invalid_request", "Enter a username and a password.");
    const dashboard = await getDashboard();
    const result = await login(dashboard.db, parsed.data.username.toLowerCase(), parsed.data.password);
    if (!result.ok && result.reason === "locked") {
      const minutes = Math.max(1, Math.ceil((result.until.getTime() - Date.now()) / 60_000));
      throw new HttpError(
        423,
        "account_locked",
        `Too many wrong passwords: this account is locked for ${minutes} more minute${minutes === 1 ? "" : "s"}.`,
      );
    }
    if (!result.ok) throw new HttpError(401, "invalid_credentials", "Wrong username or password.");
    const session = await readSession(
      dashboard.config.SESSION_SECRET,
      dashboard.config.NODE_ENV === "production",
    );
    session.userId = result.user.id;
    session.username = result.user.username;
    session.role = result.user.role;
    await session.save();
    return NextResponse.json({
      user: { username: result.user.username, role: result.user.role },
      home: homeFor(result.user.role),
    });
  } catch (err) {
    return errorResponse(err);
  }
}
