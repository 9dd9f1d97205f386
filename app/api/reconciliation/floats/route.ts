import { z } from "zod";
import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { setFloat } from "@/lib/server/night/counting";
import { FloatEntry, FloatRequest } from "@/lib/shared/api/reconciliation";

/** A cash desk's opening float for a night (audited); answers the night's floats. */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) =>
  answer(z.array(FloatEntry), await setFloat(dashboard.db, user, await readBody(request, FloatRequest)), 201),
);
