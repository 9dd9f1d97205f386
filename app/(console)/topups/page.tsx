import { TopupsView } from "@/components/sales/topups-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function TopupsPage() {
  await pageUser("topups.view");
  return (
    <Screen page="topups">
      <TopupsView />
    </Screen>
  );
}
