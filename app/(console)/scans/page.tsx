import { ScansView } from "@/components/sales/scans-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function ScansPage() {
  await pageUser("scans.view");
  return (
    <Screen page="scans">
      <ScansView />
    </Screen>
  );
}
