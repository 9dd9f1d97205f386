import "server-only";
import type { Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { NightReportDocument } from "@/lib/shared/api/night";
import type { Locale } from "@/lib/shared/i18n/locales";
import { getDashboard } from "../dashboard";
import { eventDays, eventSettings } from "../store/event-settings";
import * as night from "../store/night-records";
import { toSignoff } from "./night";
import { nightReportPdf } from "./report-pdf";

/**
 * The night report of a sign-off: its frozen snapshot, the event and the night, and the records
 * that reached the server since it (adjustments, as of now). The print view and the PDF both show
 * this, never the live night.
 */
export async function signoffDocument(
  db: Queryable,
  signoffId: string,
  now: Date,
): Promise<NightReportDocument> {
  const row = await night.signoffById(db, signoffId);
  if (!row) throw new ConsoleError("not_found", `No sign-off ${signoffId}.`);
  const [event, days, adjustments] = await Promise.all([
    eventSettings(db),
    eventDays(db),
    night.lateByDevice(db, row.day_id, row.signed_at),
  ]);
  const day = days.find((d) => d.id === row.day_id);
  if (!event || !day)
    throw new ConsoleError("not_found", `The night of sign-off ${signoffId} is not in the mirror.`);
  return { event, day, signoff: toSignoff(row), adjustments, generated_at: now.toISOString() };
}

/** The night report of a sign-off as a PDF file: its name and its bytes. */
export async function signoffPdf(db: Queryable, signoffId: string, locale: Locale, now: Date) {
  const doc = await signoffDocument(db, signoffId, now);
  return {
    fileName: `night-report-${doc.day.date}-signoff-${doc.signoff.id}.pdf`,
    body: await nightReportPdf(doc, locale),
  };
}

/** For the print view (a page): the night report of a sign-off, or null when there is no such sign-off. */
export async function signoffDocumentForPage(signoffId: string): Promise<NightReportDocument | null> {
  if (!/^[0-9]{1,18}$/.test(signoffId)) return null;
  const { db, clock } = await getDashboard();
  return signoffDocument(db, signoffId, clock()).catch((err: unknown) => {
    if (err instanceof ConsoleError && err.code === "not_found") return null;
    throw err;
  });
}
