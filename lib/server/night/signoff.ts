import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type {
  NightChecksum,
  Signoff,
  SignoffInput,
  SignoffOutcome,
  SignoffSnapshot,
  Tolerance,
} from "@/lib/shared/api/night";
import { dateTime } from "@/lib/shared/format/time";
import { countedLines } from "@/lib/shared/night-arithmetic";
import { approvalRefusal, beyondLine, needsApproval } from "@/lib/shared/night-close";
import { pushBus } from "../push";
import { recordAudit } from "../store/audit-log";
import { isDayWalked } from "../store/backfill";
import { eventDays, eventFormat } from "../store/event-settings";
import { floatsOf, insertApproval } from "../store/night-close";
import * as night from "../store/night-records";
import { pickDay } from "../sync/freshness";
import { nightCompleteness } from "./completeness";
import { resolveCount } from "./counting";
import { lateArrivals, nightChecksum, nightFigures, toSignoff } from "./night";

/**
 * Signing a night off, exactly once: a sign-off carries its form's idempotency key and names the
 * sign-off its form was based on; the store keeps one row per key, one first sign-off per night and
 * one successor per sign-off (constraints of migration 017, not a read before the write). A replay
 * of the key answers the original; a second sign-off based on the same state of the night is
 * refused with a 409 naming the one that stands. A variance beyond the tolerance needs a comment
 * and a manager's approval before the sign-off is final.
 */

type User = { id: string; username: string; role: string };

const at = async (db: Queryable, iso: string) => dateTime(iso, (await eventFormat(db)).timeZone);

/** The answer to a replayed idempotency key: the original sign-off, if it is this user's of this night. */
function replayOf(row: night.SignoffRow, user: User, request: SignoffInput): SignoffOutcome {
  if (row.user_id !== user.id || row.day_id !== request.day_id)
    throw new ConsoleError(
      "idempotency_key_reused",
      "This idempotency key belongs to another sign-off: open the form again for a new one.",
      { param: "idempotency_key" },
    );
  return { signoff: toSignoff(row), created: false };
}

/** The night must be over, mirrored, and checked against the upstream (or signed against it knowingly). */
async function assertSignable(db: Queryable, day: { id: string; name: string; ends_at: string }, now: Date) {
  if (Date.parse(day.ends_at) > now.getTime())
    throw new ConsoleError(
      "night_not_ended",
      `${day.name} has not ended yet (it ends ${await at(db, day.ends_at)}): count it and save a draft; it is signed off once it is over.`,
    );
  if (!(await isDayWalked(db, day.id)))
    throw new ConsoleError(
      "night_incomplete",
      `${day.name}'s records are still being mirrored: a night is signed off once all of them are here.`,
    );
}

function assertChecked(checksum: NightChecksum, against: boolean) {
  if (against || checksum.matched === true) return;
  if (checksum.matched === null)
    throw new ConsoleError(
      "night_not_checked",
      "The night has not been checked against the upstream summary yet: wait for the check, or sign off against the difference explicitly.",
      { param: "sign_against_difference" },
    );
  throw new ConsoleError(
    "night_differs",
    "The night differs from the upstream summary: re-sync it, or sign off against the difference explicitly.",
    { param: "sign_against_difference" },
  );
}

/** The sign-off the form was based on must be one of this night's. */
async function assertBasis(db: Queryable, basedOn: string | null, dayId: string) {
  if (basedOn === null) return;
  const row = await night.signoffById(db, basedOn);
  if (!row || row.day_id !== dayId)
    throw new ConsoleError("invalid_parameter", `based_on: ${basedOn} is not a sign-off of this night.`, {
      param: "based_on",
    });
}

/** The 409 of a sign-off that lost: it names the sign-off that stands. */
async function alreadySigned(db: Queryable, dayId: string): Promise<never> {
  const [current] = await night.signoffsOf(db, dayId);
  throw new ConsoleError(
    "already_signed",
    current
      ? `${current.username} signed this night off at ${await at(db, current.signed_at)} (sign-off ${current.id}) from the same figures: reload to see it.`
      : "This night was signed off meanwhile: reload to see it.",
  );
}

export async function signOff(
  db: Db,
  user: User,
  request: SignoffInput,
  options: { tolerance: Tolerance; now: Date },
): Promise<SignoffOutcome> {
  const { now } = options;
  const { tolerance } = options;
  return db.transaction(async (tx) => {
    const replay = await night.signoffByKey(tx, request.idempotency_key);
    if (replay) return replayOf(replay, user, request);
    const day = pickDay({ days: await eventDays(tx) }, request.day_id, now)!;
    await assertSignable(tx, day, now);
    await assertBasis(tx, request.based_on, day.id);
    const figures = await nightFigures(tx, day.id);
    const checksum = await nightChecksum(tx, day.id, figures);
    assertChecked(checksum, request.sign_against_difference);
    const { currency } = await eventFormat(tx);
    const counted = countedLines(figures.expected, resolveCount(figures.expected, request.counted, currency));
    const approval = needsApproval(
      counted.map((l) => l.variance),
      tolerance,
    );
    if (approval && request.comment === "")
      throw new ConsoleError(
        "comment_required",
        `A variance is beyond the tolerance (${counted.filter((l) => beyondLine(l.variance, tolerance)).length} lines, or the night's total): say why in the comment; a manager then approves the sign-off.`,
        { param: "comment" },
      );
    const snapshot: SignoffSnapshot = {
      figures,
      checksum,
      late: await lateArrivals(tx, day),
      completeness: await nightCompleteness(tx, day),
      tolerance,
      signed_against_difference: checksum.matched !== true,
      blind: request.blind,
      floats: await floatsOf(tx, day.id),
    };
    const id = await night.insertSignoff(tx, {
      day_id: day.id,
      signed_at: now.toISOString(),
      user_id: user.id,
      username: user.username,
      comment: request.comment,
      counted,
      snapshot,
      idempotency_key: request.idempotency_key,
      supersedes: request.based_on,
      needs_approval: approval,
    });
    if (id) return { signoff: toSignoff((await night.signoffById(tx, id))!), created: true };
    // A constraint refused it: the same key (a double click), or another sign-off from the same basis.
    const won = await night.signoffByKey(tx, request.idempotency_key);
    if (won) return replayOf(won, user, request);
    return alreadySigned(tx, day.id);
  });
}

/** A sign-off, and its entry in the audit log (a replay is not a second entry). */
export async function signOffNight(
  db: Db,
  user: User,
  request: SignoffInput,
  options: { tolerance: Tolerance; now: Date },
): Promise<SignoffOutcome> {
  const outcome = await signOff(db, user, request, options);
  if (outcome.created)
    await recordAudit(db, {
      user,
      action: "reconciliation.signoff",
      target: request.day_id,
      outcome: "ok",
      detail: {
        signoff_id: outcome.signoff.id,
        sales_total: outcome.signoff.snapshot.figures.sales.total,
        status: outcome.signoff.status,
        idempotency_key: request.idempotency_key,
      },
    });
  if (outcome.created) pushBus(db).emit("night");
  return outcome;
}

const REFUSALS = {
  approval_not_needed: "This sign-off is within the tolerance, or already approved: it needs no approval.",
  signoff_superseded: "A later sign-off of this night replaced this one: approve the latest.",
  approver_is_signer: "A sign-off is approved by someone other than the person who signed it.",
} as const;

/**
 * A manager approves a sign-off whose variance is beyond the tolerance: it becomes final. One
 * approval per sign-off (the store's primary key): a second is refused with a 409 naming the first.
 */
export async function approveSignoff(
  db: Db,
  user: User,
  signoffId: string,
  comment: string,
  now: Date,
): Promise<Signoff> {
  const row = await night.signoffById(db, signoffId);
  if (!row) throw new ConsoleError("not_found", `No sign-off ${signoffId}.`);
  const signoff = toSignoff(row);
  if (signoff.approval)
    throw new ConsoleError(
      "already_approved",
      `${signoff.approval.username} approved this sign-off at ${await at(db, signoff.approval.approved_at)}.`,
    );
  const refusal = row.user_id === user.id ? "approver_is_signer" : approvalRefusal(signoff, user.username);
  if (refusal) throw new ConsoleError(refusal, REFUSALS[refusal]);
  const stored = await insertApproval(db, {
    signoff_id: signoffId,
    user_id: user.id,
    username: user.username,
    comment,
    at: now,
  });
  const approved = toSignoff((await night.signoffById(db, signoffId))!);
  if (!stored)
    throw new ConsoleError(
      "already_approved",
      `${approved.approval?.username} approved this sign-off at ${await at(db, approved.approval?.approved_at ?? now.toISOString())}.`,
    );
  await recordAudit(db, {
    user,
    action: "reconciliation.approve",
    target: approved.day_id,
    outcome: "ok",
    detail: { signoff_id: signoffId, comment },
  });
  pushBus(db).emit("night");
  return approved;
}
