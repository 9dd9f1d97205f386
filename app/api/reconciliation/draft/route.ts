import { z } from "zod";
import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { saveDraft } from "@/lib/server/night/counting";
import { DraftLine, DraftRequest } from "@/lib/shared/api/reconciliation";

/** Saves counted lines as the night's draft (a running night can be counted); answers the draft. */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) =>
  answer(z.array(DraftLine), await saveDraft(dashboard.db, user, await readBody(request, DraftRequest))),
);
