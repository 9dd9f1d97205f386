import { OverviewView } from "@/components/sales/overview-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("overview.view");
  return (
    <Screen page="overview">
      <OverviewView />
    </Screen>
  );
}
