import type { AlertKind } from "./api/attention";

/**
 * The one permission table: pages (navigation, buttons) and route handlers read it, so a role
 * can never do on the server what its screens do not offer, nor the reverse.
 */
export const roles = ["manager", "supervisor", "staff"] as const;
/** The role of a user account. */
export type Role = (typeof roles)[number];
/**
 * Who a session acts as: a user's role, or a wall (a TV showing the right-now figures: its own kind of
 * session, from a token a manager issued; it reads what the wall shows and nothing else).
 */
export type Actor = Role | "wall";

export const permissions = {
  "overview.view": ["manager", "supervisor", "wall"],
  "sales.view": ["manager", "supervisor"],
  "topups.view": ["manager", "supervisor"],
  "topups.create": ["manager", "supervisor"],
  "withdrawals.create": ["manager", "supervisor"],
  "scans.view": ["manager", "supervisor", "staff"],
  "tickets.view": ["manager", "supervisor", "staff"],
  "tickets.checkin": ["manager", "supervisor", "staff"],
  /** "Check in anyway": a ticket on a day it is not valid for (the server refuses it to others). */
  "tickets.checkin_override": ["manager", "supervisor"],
  "tickets.cancel": ["manager"],
  "tickets.import": ["manager"],
  "wristbands.view": ["manager", "supervisor", "staff"],
  "review.view": ["manager", "supervisor"],
  "review.resolve": ["manager", "supervisor"],
  "reconciliation.view": ["manager", "supervisor"],
  "reconciliation.signoff": ["manager", "supervisor"],
  /** A sign-off whose variance is beyond the tolerance is final once a manager (not its signer) approves it. */
  "reconciliation.approve": ["manager"],
  "audit.view": ["manager"],
  "users.manage": ["manager"],
  "connection.view": ["manager", "supervisor", "staff"],
  "terminals.view": ["manager", "supervisor"],
  "terminals.manage": ["manager"],
  "alerts.view": ["manager", "supervisor", "staff"],
  "alerts.acknowledge": ["manager", "supervisor"],
  /** The wall page (/wall) and the reads only it makes; managers and supervisors may look at it too. */
  "wall.view": ["manager", "supervisor", "wall"],
  "gates.view": ["manager", "supervisor"],
  /** Zone capacities and the misuse rules' settings (audited). */
  "gates.manage": ["manager"],
  /** Contact points and routes of the alerts (issue 29): where messages go holds secrets. */
  "contacts.manage": ["manager"],
} as const satisfies Record<string, readonly Actor[]>;

export type Permission = keyof typeof permissions;

export function can(role: Actor, permission: Permission): boolean {
  return (permissions[permission] as readonly Actor[]).includes(role);
}

/** The screens of the console, in navigation order, with the permission each needs. */
export const screens = [
  { href: "/", key: "overview", label: "Overview", permission: "overview.view" },
  { href: "/sales", key: "sales", label: "Sales by day", permission: "sales.view" },
  { href: "/topups", key: "topups", label: "Top-ups", permission: "topups.view" },
  { href: "/desk", key: "desk", label: "Top-up desk", permission: "topups.create" },
  { href: "/search", key: "search", label: "Search", permission: "tickets.view" },
  { href: "/wristbands", key: "wristbands", label: "Wristbands", permission: "wristbands.view" },
  { href: "/tickets", key: "tickets", label: "Tickets", permission: "tickets.view" },
  { href: "/review", key: "review", label: "Review queue", permission: "review.view" },
  { href: "/import", key: "import", label: "Ticket import", permission: "tickets.import" },
  {
    href: "/reconciliation",
    key: "reconciliation",
    label: "Night reconciliation",
    permission: "reconciliation.view",
  },
  { href: "/scans", key: "scans", label: "Door scans", permission: "scans.view" },
  { href: "/gates", key: "gates", label: "Entries and gates", permission: "gates.view" },
  { href: "/gates/misuse", key: "misuse", label: "Misuse", permission: "gates.view" },
  { href: "/terminals", key: "terminals", label: "Terminals", permission: "terminals.view" },
  { href: "/alerts", key: "alerts", label: "Alerts", permission: "alerts.view" },
  { href: "/audit", key: "audit", label: "Audit log", permission: "audit.view" },
  { href: "/users", key: "users", label: "Users", permission: "users.manage" },
  { href: "/connection", key: "connection", label: "Connection", permission: "connection.view" },
] as const satisfies readonly { href: string; key: string; label: string; permission: Permission }[];

/**
 * Where a role lands after login (and after a screen it may not open): its first screen. Managers
 * and supervisors land on the overview; staff on the search, the gate's tool.
 */
export function homeFor(role: Actor): string {
  // A wall opens the wall and nothing else (it may read the overview's figures, not its page).
  if (role === "wall") return "/wall";
  return screens.find((s) => can(role, s.permission))?.href ?? "/connection";
}

/**
 * Which roles see which alerts: each role the kinds that concern it. Staff at the gate see only
 * what stops their tools (the sync); terminals, money and nights concern managers and supervisors.
 */
export const alertKindRoles = {
  terminal_quiet: ["manager", "supervisor", "wall"],
  terminal_late: ["manager", "supervisor", "wall"],
  signed_night_moved: ["manager", "supervisor"],
  night_mismatch: ["manager", "supervisor"],
  sync_stalled: ["manager", "supervisor", "staff", "wall"],
  sync_failing: ["manager", "supervisor", "wall"],
  sync_quota: ["manager"],
  refund_spike: ["manager", "supervisor"],
  negative_balance: ["manager", "supervisor"],
  review_waiting: ["manager", "supervisor"],
  zone_capacity: ["manager", "supervisor", "wall"],
  impossible_walk: ["manager", "supervisor"],
  double_checkin: ["manager", "supervisor"],
  denied_burst: ["manager", "supervisor"],
  double_swipe: ["manager", "supervisor"],
  offline_double_spend: ["manager", "supervisor"],
} as const satisfies Record<AlertKind, readonly Actor[]>;

export function alertKindsFor(role: Actor): AlertKind[] {
  return (Object.keys(alertKindRoles) as AlertKind[]).filter((k) =>
    (alertKindRoles[k] as readonly Actor[]).includes(role),
  );
}
