import { SalesView } from "@/components/sales/sales-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function SalesPage() {
  await pageUser("sales.view");
  return (
    <Screen page="sales">
      <SalesView />
    </Screen>
  );
}
