import { DEMO_TICKET_TYPES, DEMO_ZONES } from "./demo-catalog";
import {
  CHECKIN_PROFILE,
  DAY,
  iso,
  type SeedContext,
  sampleIn,
  type Ticket,
  type TicketStatus,
} from "./demo-model";
import { WeightedTable } from "./random";

// biome-ignore format: a list
const FIRST_NAMES = [
  "Lucía", "Hugo", "Martina", "Mateo", "Sofía", "Leo", "Julia", "Daniel", "Paula", "Pablo", "Valeria",
  "Álvaro", "Carmen", "Manuel", "Alba", "Javier", "Noa", "Adrián", "Irene", "Diego", "Elena", "Marcos",
  "Laura", "Sergio", "Claudia", "Jorge", "Nerea", "Iker", "Ainhoa", "Marc", "Núria", "Pau", "Emma",
  "Liam", "Olivia", "Noah", "Chloé", "Louis", "Giulia", "Luca", "Anna", "Jonas", "Maja", "Finn",
  "Sara", "Tom", "Inês", "João", "Zoe", "Oscar",
];
// biome-ignore format: a list
const LAST_NAMES = [
  "García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez",
  "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso",
  "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Serrano", "Molina", "Ortega", "Castro",
  "Rubio", "Puig", "Ferrer", "Etxeberria", "Smith", "Müller", "Dubois", "Rossi", "Jansen", "Silva",
  "Novak", "Nielsen", "Kowalski", "O'Brien", "Costa", "Berg",
];
const EMAIL_DOMAINS = ["example.com", "example.org", "example.net", "mail.example.com"];
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Tickets of every type and status; a used ticket has its check-in time (its wristband comes later). */
export function seedTickets(ctx: SeedContext): Ticket[] {
  const { scale, now, days, startedDays, firstStart } = ctx;
  const rTickets = ctx.random.tickets;
  const nTickets = Math.max(40, Math.round(5000 * scale));
  const typeTable = new WeightedTable(DEMO_TICKET_TYPES.map((t, i) => [i, t.weight] as const));
  const statusTable = new WeightedTable<TicketStatus>([
    ["used", 55],
    ["active", 40],
    ["inactive", 5],
  ]);
  const codes = new Set<string>();
  const tickets: Ticket[] = [];
  const salesStart = Math.min(firstStart, now);
  for (let i = 0; i < nTickets; i++) {
    const r = rTickets;
    const type = typeTable.pick(r);
    const tt = DEMO_TICKET_TYPES[type];
    let status = statusTable.pick(r);
    let ticketDays: number[];
    if (tt.allDays) ticketDays = days.map((d) => d.index);
    else if (status === "used") ticketDays = [r.pick(startedDays).index];
    else ticketDays = [r.weighted(days, [20, 25, 25, 30]).index];
    if (status === "used" && !ticketDays.some((d) => days[d].start < now)) status = "active";
    let code: string;
    do code = `TK-${r.alnumUpper(8)}`;
    while (codes.has(code));
    codes.add(code);
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const second = r.chance(0.4) ? ` ${r.pick(LAST_NAMES)}` : "";
    const name = `${first} ${last}${second}`;
    const emailLocal = `${first}.${last}${r.chance(0.5) ? r.int(1, 99) : ""}`
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9.]/g, "")
      .toLowerCase();
    let docType: string | null = null;
    let docNumber: string | null = null;
    if (r.chance(0.65)) {
      if (r.chance(0.75)) {
        const n = r.int(10_000_000, 99_999_999);
        docType = "dni";
        docNumber = `${n}${DNI_LETTERS[n % 23]}`;
      } else {
        docType = "passport";
        docNumber = `${LETTERS[r.int(0, 25)]}${LETTERS[r.int(0, 25)]}${LETTERS[r.int(0, 25)]}${r.int(100000, 999999)}`;
      }
    }
    const birthDate = r.chance(0.85)
      ? iso(firstStart - r.int(18 * 365, 65 * 365) * DAY - r.int(0, DAY)).slice(0, 10)
      : null;
    const extraZones: number[] = [];
    if (r.chance(0.03)) {
      const candidates = DEMO_ZONES.map((_, z) => z).filter(
        (z) => !tt.zones.includes(DEMO_ZONES[z].key) && z !== 0,
      );
      extraZones.push(r.pick(candidates));
    }
    const createdAt = salesStart - Math.floor(r.float(2 * DAY, 120 * DAY));
    let updatedAt = createdAt;
    let checkedInAt: number | null = null;
    if (status === "used") {
      const dayChoices = ticketDays.filter((d) => days[d].start < now);
      const d = tt.allDays
        ? r.weighted(
            dayChoices,
            dayChoices.map((x) => [60, 25, 15, 5][x]),
          )
        : dayChoices[0];
      checkedInAt = sampleIn(r, days[d], CHECKIN_PROFILE, days[d].start, now);
      if (checkedInAt === null) {
        status = "active";
      } else updatedAt = checkedInAt;
    }
    if (status === "inactive")
      updatedAt = createdAt + Math.floor(r.next() * (Math.min(firstStart, now) - createdAt));
    else if (status === "active" && r.chance(0.08))
      updatedAt = createdAt + Math.floor(r.next() * (salesStart - createdAt));
    tickets.push({
      id: "",
      code,
      type,
      status,
      name,
      email: `${emailLocal}@${r.pick(EMAIL_DOMAINS)}`,
      docType,
      docNumber,
      birthDate,
      days: ticketDays,
      extraZones,
      wristband: -1,
      checkedInAt,
      createdAt,
      updatedAt,
    });
  }
  return tickets;
}
