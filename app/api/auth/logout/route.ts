import { NextResponse } from "next/server";
import { getDashboard } from "@/lib/server/dashboard";
import { assertSameOrigin, errorResponse } from "@/lib/server/guard";
import { readSession } from "@/lib/server/session";

export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const { config } = await getDashboard();
    const session = await readSession(config.SESSION_SECRET, config.NODE_ENV === "production");
    session.destroy();
    return NextResponse.json({ ok: true });
  } catch (err) {
    return errorResponse(err);
  }
}
