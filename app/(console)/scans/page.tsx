import { ScansView } from "@/components/live/scans-view";
import { Forbidden, Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/page-guard";

export default async function ScansPage() {
  const { allowed } = await pageUser("scans.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Door scans">
      <ScansView />
    </Screen>
  );
}
