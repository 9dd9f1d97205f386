import { TopupsView } from "@/components/live/topups-view";
import { Forbidden, Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/page-guard";

export default async function TopupsPage() {
  const { allowed } = await pageUser("topups.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Top-up flows">
      <TopupsView />
    </Screen>
  );
}
