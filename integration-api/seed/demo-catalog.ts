/**
 * Static data of the demo festival: zones, ticket types, bonus rules, point-of-sale devices and their
 * products, top-up and refund desks, gates. Plain constants, shared by the demo seeder and the
 * terminal simulator. Zones, ticket types and bonus rules get their database ids when seeded (look
 * them up by name); product ids and device ids below are fixed and end up verbatim in the data.
 */

export const DEMO_EVENT = {
  name: "Mar de Luz Festival",
  currency: "EUR",
  timeZone: "Europe/Madrid",
  /** Total bonus one person (a ticket and its wristbands) may receive, in cents. */
  bonusCapPerPerson: 2500,
} as const;

export type ZoneKey = "general" | "vip" | "backstage" | "camping" | "press";

export interface DemoZone {
  key: ZoneKey;
  name: string;
}

export const DEMO_ZONES: readonly DemoZone[] = [
  { key: "general", name: "General Area" },
  { key: "vip", name: "VIP Lounge" },
  { key: "backstage", name: "Backstage" },
  { key: "camping", name: "Camping" },
  { key: "press", name: "Press Pit" },
];

export type TicketTypeKey = "pass" | "day" | "vip" | "camping" | "crew";

export interface DemoTicketType {
  key: TicketTypeKey;
  name: string;
  zones: readonly ZoneKey[];
  /** true: valid every day of the event; false: valid one day. */
  allDays: boolean;
  /** Share of the tickets sold. */
  weight: number;
}

export const DEMO_TICKET_TYPES: readonly DemoTicketType[] = [
  { key: "pass", name: "4-Day Pass", zones: ["general"], allDays: true, weight: 45 },
  { key: "day", name: "Day Ticket", zones: ["general"], allDays: false, weight: 30 },
  { key: "vip", name: "VIP 4-Day", zones: ["general", "vip"], allDays: true, weight: 8 },
  { key: "camping", name: "Camping Pass", zones: ["general", "camping"], allDays: true, weight: 12 },
  { key: "crew", name: "Crew", zones: ["general", "backstage", "press"], allDays: true, weight: 5 },
];

export interface DemoBonusTier {
  min_amount: number;
  bonus_amount: number;
}

export interface DemoBonusRule {
  key: "festival" | "happy_hour" | "opening";
  name: string;
  /**
   * event: from 30 days before the first day until the end of the last day;
   * around_now: from 2 hours before the seed's `now` to 2 hours after it;
   * expired: the first 5 hours of the first day.
   */
  window: "event" | "around_now" | "expired";
  tiers: readonly DemoBonusTier[];
}

export const DEMO_BONUS_RULES: readonly DemoBonusRule[] = [
  {
    key: "festival",
    name: "Festival top-up bonus",
    window: "event",
    tiers: [
      { min_amount: 2000, bonus_amount: 100 },
      { min_amount: 5000, bonus_amount: 400 },
      { min_amount: 10000, bonus_amount: 1000 },
    ],
  },
  {
    key: "happy_hour",
    name: "Happy hour",
    window: "around_now",
    tiers: [
      { min_amount: 2000, bonus_amount: 300 },
      { min_amount: 5000, bonus_amount: 800 },
      { min_amount: 10000, bonus_amount: 1800 },
    ],
  },
  {
    key: "opening",
    name: "Opening night boost",
    window: "expired",
    tiers: [
      { min_amount: 3000, bonus_amount: 500 },
      { min_amount: 6000, bonus_amount: 1200 },
    ],
  },
];

export type ProductCategory = "drink" | "food" | "merch";

export interface DemoProduct {
  /** Fixed, 24 hex characters; the same product has the same id at every stand. */
  id: string;
  name: string;
  category: ProductCategory;
  /** Gross unit price (tax included), in cents. */
  unitPrice: number;
  taxType: "VAT";
  /** Percentage: 21 means 21 %. */
  taxRate: number;
}

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  // Drinks: alcohol 21 %, water and soft drinks 10 %.
  {
    id: "5eed00000000000000000101",
    name: "Beer 33 cl",
    category: "drink",
    unitPrice: 450,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000102",
    name: "Beer 50 cl",
    category: "drink",
    unitPrice: 650,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000103",
    name: "Craft IPA",
    category: "drink",
    unitPrice: 700,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000104",
    name: "Cider",
    category: "drink",
    unitPrice: 550,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000105",
    name: "Tinto de verano",
    category: "drink",
    unitPrice: 500,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000106",
    name: "Gin & Tonic",
    category: "drink",
    unitPrice: 1000,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000107",
    name: "Rum & Cola",
    category: "drink",
    unitPrice: 950,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000108",
    name: "Water 50 cl",
    category: "drink",
    unitPrice: 200,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000109",
    name: "Soft drink",
    category: "drink",
    unitPrice: 300,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed0000000000000000010a",
    name: "Energy drink",
    category: "drink",
    unitPrice: 350,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed0000000000000000010b",
    name: "Cava glass",
    category: "drink",
    unitPrice: 900,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed0000000000000000010c",
    name: "Premium G&T",
    category: "drink",
    unitPrice: 1400,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed0000000000000000010d",
    name: "Signature cocktail",
    category: "drink",
    unitPrice: 1200,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed0000000000000000010e",
    name: "Coffee",
    category: "drink",
    unitPrice: 250,
    taxType: "VAT",
    taxRate: 10,
  },
  // Food: 10 %.
  {
    id: "5eed00000000000000000201",
    name: "Classic burger",
    category: "food",
    unitPrice: 1050,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000202",
    name: "Cheeseburger",
    category: "food",
    unitPrice: 1150,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000203",
    name: "Veggie burger",
    category: "food",
    unitPrice: 1100,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000204",
    name: "Fries",
    category: "food",
    unitPrice: 450,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000205",
    name: "Pizza slice margherita",
    category: "food",
    unitPrice: 500,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000206",
    name: "Pizza slice pepperoni",
    category: "food",
    unitPrice: 550,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000207",
    name: "Whole pizza",
    category: "food",
    unitPrice: 1600,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000208",
    name: "Buddha bowl",
    category: "food",
    unitPrice: 1100,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed00000000000000000209",
    name: "Falafel wrap",
    category: "food",
    unitPrice: 950,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed0000000000000000020a",
    name: "Hummus & pita",
    category: "food",
    unitPrice: 650,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed0000000000000000020b",
    name: "Churros (6)",
    category: "food",
    unitPrice: 500,
    taxType: "VAT",
    taxRate: 10,
  },
  {
    id: "5eed0000000000000000020c",
    name: "Hot chocolate",
    category: "food",
    unitPrice: 350,
    taxType: "VAT",
    taxRate: 10,
  },
  // Merchandise: 21 %.
  {
    id: "5eed00000000000000000301",
    name: "Festival T-shirt",
    category: "merch",
    unitPrice: 2500,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000302",
    name: "Hoodie",
    category: "merch",
    unitPrice: 4500,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000303",
    name: "Cap",
    category: "merch",
    unitPrice: 1800,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000304",
    name: "Tote bag",
    category: "merch",
    unitPrice: 1200,
    taxType: "VAT",
    taxRate: 21,
  },
  {
    id: "5eed00000000000000000305",
    name: "Rain poncho",
    category: "merch",
    unitPrice: 500,
    taxType: "VAT",
    taxRate: 21,
  },
];

export const productById: ReadonlyMap<string, DemoProduct> = new Map(DEMO_PRODUCTS.map((p) => [p.id, p]));

export type StandKind = "bar" | "food" | "merch";

export interface DemoStandProduct {
  productId: string;
  /** Relative popularity at this stand. */
  weight: number;
}

export interface DemoStand {
  /** The device id written on every sale of this stand (one terminal per stand). */
  deviceId: string;
  name: string;
  kind: StandKind;
  /** Share of the event's sales made here. */
  weight: number;
  /** A zone the buyer's wristband must allow (the VIP bar), else null. */
  requiresZone: ZoneKey | null;
  products: readonly DemoStandProduct[];
}

const BAR_MENU: readonly DemoStandProduct[] = [
  { productId: "5eed00000000000000000101", weight: 30 },
  { productId: "5eed00000000000000000102", weight: 18 },
  { productId: "5eed00000000000000000103", weight: 6 },
  { productId: "5eed00000000000000000104", weight: 5 },
  { productId: "5eed00000000000000000105", weight: 6 },
  { productId: "5eed00000000000000000106", weight: 8 },
  { productId: "5eed00000000000000000107", weight: 5 },
  { productId: "5eed00000000000000000108", weight: 12 },
  { productId: "5eed00000000000000000109", weight: 7 },
  { productId: "5eed0000000000000000010a", weight: 3 },
];

export const DEMO_STANDS: readonly DemoStand[] = [
  {
    deviceId: "bar-01",
    name: "Main Stage Bar",
    kind: "bar",
    weight: 16,
    requiresZone: null,
    products: BAR_MENU,
  },
  { deviceId: "bar-02", name: "Sunset Bar", kind: "bar", weight: 12, requiresZone: null, products: BAR_MENU },
  { deviceId: "bar-03", name: "Beach Bar", kind: "bar", weight: 10, requiresZone: null, products: BAR_MENU },
  { deviceId: "bar-04", name: "Camping Bar", kind: "bar", weight: 6, requiresZone: null, products: BAR_MENU },
  {
    deviceId: "bar-05",
    name: "Electronic Tent Bar",
    kind: "bar",
    weight: 11,
    requiresZone: null,
    products: BAR_MENU,
  },
  {
    deviceId: "bar-06",
    name: "VIP Lounge Bar",
    kind: "bar",
    weight: 4,
    requiresZone: "vip",
    products: [
      { productId: "5eed00000000000000000101", weight: 12 },
      { productId: "5eed00000000000000000103", weight: 8 },
      { productId: "5eed0000000000000000010b", weight: 10 },
      { productId: "5eed0000000000000000010c", weight: 10 },
      { productId: "5eed0000000000000000010d", weight: 8 },
      { productId: "5eed00000000000000000108", weight: 8 },
      { productId: "5eed00000000000000000109", weight: 4 },
    ],
  },
  {
    deviceId: "food-01",
    name: "Burger Truck",
    kind: "food",
    weight: 10,
    requiresZone: null,
    products: [
      { productId: "5eed00000000000000000201", weight: 10 },
      { productId: "5eed00000000000000000202", weight: 9 },
      { productId: "5eed00000000000000000203", weight: 4 },
      { productId: "5eed00000000000000000204", weight: 12 },
      { productId: "5eed00000000000000000109", weight: 6 },
      { productId: "5eed00000000000000000108", weight: 4 },
    ],
  },
  {
    deviceId: "food-02",
    name: "Pizza Corner",
    kind: "food",
    weight: 9,
    requiresZone: null,
    products: [
      { productId: "5eed00000000000000000205", weight: 10 },
      { productId: "5eed00000000000000000206", weight: 9 },
      { productId: "5eed00000000000000000207", weight: 3 },
      { productId: "5eed00000000000000000109", weight: 5 },
      { productId: "5eed00000000000000000108", weight: 4 },
    ],
  },
  {
    deviceId: "food-03",
    name: "Green Bowl",
    kind: "food",
    weight: 5,
    requiresZone: null,
    products: [
      { productId: "5eed00000000000000000208", weight: 8 },
      { productId: "5eed00000000000000000209", weight: 8 },
      { productId: "5eed0000000000000000020a", weight: 6 },
      { productId: "5eed00000000000000000108", weight: 4 },
    ],
  },
  {
    deviceId: "food-04",
    name: "Churros & Coffee",
    kind: "food",
    weight: 6,
    requiresZone: null,
    products: [
      { productId: "5eed0000000000000000020b", weight: 10 },
      { productId: "5eed0000000000000000020c", weight: 6 },
      { productId: "5eed0000000000000000010e", weight: 8 },
      { productId: "5eed00000000000000000108", weight: 3 },
    ],
  },
  {
    deviceId: "merch-01",
    name: "Festival Merch",
    kind: "merch",
    weight: 3,
    requiresZone: null,
    products: [
      { productId: "5eed00000000000000000301", weight: 10 },
      { productId: "5eed00000000000000000302", weight: 4 },
      { productId: "5eed00000000000000000303", weight: 5 },
      { productId: "5eed00000000000000000304", weight: 5 },
      { productId: "5eed00000000000000000305", weight: 3 },
    ],
  },
];

/** Paid top-ups and withdrawals happen here (card or cash). Online top-ups have no device (null). */
export const DEMO_TOPUP_DEVICES: readonly string[] = ["topup-01", "topup-02", "topup-03", "topup-04"];
/** Refund desks: withdrawals of paid balance, mostly at the end of the night. */
export const DEMO_REFUND_DEVICES: readonly string[] = ["refund-01", "refund-02"];
/** Where crew courtesy credit is loaded. */
export const DEMO_COURTESY_DEVICE = "crew-desk";
/** Preset top-up amounts offered at desks and in the app, in cents. */
export const DEMO_TOPUP_PRESETS: readonly number[] = [2000, 3000, 5000, 10000];
/** Courtesy credit given to crew wristbands each day, in cents. */
export const DEMO_CREW_COURTESY = 2000;

export interface DemoGate {
  deviceId: string;
  name: string;
  /** The zone this gate controls. */
  zone: ZoneKey;
  /** Main entrances also accredit tickets (check-in). */
  checkIn: boolean;
}

export const DEMO_GATES: readonly DemoGate[] = [
  { deviceId: "gate-01", name: "Main Entrance North", zone: "general", checkIn: true },
  { deviceId: "gate-02", name: "Main Entrance South", zone: "general", checkIn: true },
  { deviceId: "gate-03", name: "VIP Lounge Door", zone: "vip", checkIn: false },
  { deviceId: "gate-04", name: "Backstage Door", zone: "backstage", checkIn: false },
  { deviceId: "gate-05", name: "Camping Gate", zone: "camping", checkIn: false },
  { deviceId: "gate-06", name: "Press Pit Door", zone: "press", checkIn: false },
];
