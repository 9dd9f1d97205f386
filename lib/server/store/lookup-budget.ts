import "server-only";
import type { Queryable } from "@/lib/db/db";

/** The limits one lookup is checked against (see http/lookup-budget.ts for the rule). */
export interface LookupLimits {
  /** Lookups every user together may make in the window (the lookups' share of the key's quota). */
  pool: number;
  /** Lookups one user may make in the window at most (LOOKUP_BUDGET). */
  perUser: number;
}

/** Where the window stood when a lookup was decided. */
export interface LookupCount {
  /** Whether the lookup was counted (false: refused, nothing counted). */
  taken: boolean;
  /** Lookups counted in the window, every user together. */
  used: number;
  /** The user's lookups counted in the window. */
  mine: number;
  /** Users active in this window or the one before, the asking user included. */
  active: number;
  /** The user's fair share once half the pool is used: pool ÷ (active + 1), at least 1. */
  fair: number;
}

const POOL = "lookups";

/** Users active in the row's window or the one before, the asking user ($2) included. */
const ACTIVE = `(select count(*)::int from (
    select jsonb_object_keys(b.users) union select jsonb_object_keys(b.previous_users) union select $2::text
  ) k)`;

/** The fair share: what leaves room for one more user than are active ($3: the pool). */
const FAIR = `greatest(1, floor($3::numeric / (${ACTIVE} + 1))::int)`;

/** The user's ($2) lookups in the row's window. */
const MINE = "coalesce((b.users ->> $2)::int, 0)";

/**
 * Counts one lookup of `userId` in the window starting at `windowStart`, in ONE statement, or
 * refuses it without counting anything. Counted while the pool ($3) has room and the user is below
 * LOOKUP_BUDGET ($4), and either less than half the pool is used or the user is below their fair
 * share. A row of an older window starts over (the users of the window just before are kept as
 * active). The row lock of ON CONFLICT DO UPDATE serialises parallel lookups, and the decision
 * reads only that locked row, so no pool or share is ever exceeded, on PGlite and on PostgreSQL
 * alike. "Same window" is `>=`: an instance whose clock is a little behind counts into the newer
 * window instead of starting an older one over.
 */
export async function takeLookup(
  db: Queryable,
  userId: string,
  limits: LookupLimits,
  windowStart: Date,
  previousWindowStart: Date,
): Promise<LookupCount> {
  const [taken] = await db.query<{ used: number; mine: number }>(
    `insert into lookup_budget as b (pool, window_start, used, users, previous_users)
     values ($1, $5, 1, jsonb_build_object($2::text, 1), '{}'::jsonb)
     on conflict (pool) do update set
       used = case when b.window_start >= excluded.window_start then b.used + 1 else 1 end,
       users = case when b.window_start >= excluded.window_start
         then b.users || jsonb_build_object($2::text, ${MINE} + 1)
         else excluded.users end,
       previous_users = case
         when b.window_start >= excluded.window_start then b.previous_users
         when b.window_start = $6::timestamptz then b.users
         else '{}'::jsonb end,
       window_start = greatest(b.window_start, excluded.window_start)
     where b.window_start < excluded.window_start
       or (b.used < $3::int and ${MINE} < $4::int and (b.used * 2 < $3::int or ${MINE} < ${FAIR}))
     returning used, (users ->> $2)::int as mine`,
    [POOL, userId, limits.pool, limits.perUser, windowStart, previousWindowStart],
  );
  const [row] = await db.query<{ used: number; mine: number; active: number; fair: number }>(
    `select b.used, ${MINE} as mine, ${ACTIVE} as active, ${FAIR} as fair
     from lookup_budget b where b.pool = $1`,
    [POOL, userId, limits.pool],
  );
  const after = row ?? { used: 0, mine: 0, active: 1, fair: Math.max(1, Math.floor(limits.pool / 2)) };
  return { taken: taken !== undefined, ...after, ...(taken ?? {}) };
}
