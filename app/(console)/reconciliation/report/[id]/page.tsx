import { notFound } from "next/navigation";
import { NightReportView } from "@/components/night/night-report-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { signoffDocumentForPage } from "@/lib/server/night/report";

/** The night report of one sign-off, for printing: made from its frozen snapshot, not the live night. */
export default async function NightReportPage({ params }: { params: Promise<{ id: string }> }) {
  await pageUser("reconciliation.view");
  const { id } = await params;
  const doc = await signoffDocumentForPage(id);
  if (!doc) notFound();
  return (
    <Screen page="nightReport">
      <NightReportView doc={doc} />
    </Screen>
  );
}
