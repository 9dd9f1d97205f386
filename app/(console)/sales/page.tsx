import { SalesView } from "@/components/live/sales-view";
import { Forbidden, Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/page-guard";

export default async function SalesPage() {
  const { allowed } = await pageUser("sales.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Sales by day">
      <SalesView />
    </Screen>
  );
}
