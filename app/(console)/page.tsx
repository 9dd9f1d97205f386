import { OverviewView } from "@/components/live/overview-view";
import { Forbidden, Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page() {
  const { allowed } = await pageUser("overview.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Overview">
      <OverviewView />
    </Screen>
  );
}
