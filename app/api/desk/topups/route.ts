import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { readBody } from "@/lib/server/staff/common";
import { DeskBody, deskWrite } from "@/lib/server/staff/desk";

/** A top-up at the desk: the quoted bonus is sent along; a changed bonus is 409 bonus_mismatch. */
export const POST = route("topups.create", async ({ request, user, dashboard }) => {
  const body = await readBody(request, DeskBody);
  const topup = await deskWrite(dashboard, user, "topup", body);
  return NextResponse.json({ topup }, { status: 201 });
});
