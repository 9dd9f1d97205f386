import { Forbidden, Screen } from "@/components/screen";
import { WristbandView } from "@/components/staff/wristband-view";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page({ params }: { params: Promise<{ code: string }> }) {
  const { allowed } = await pageUser("wristbands.view");
  if (!allowed) return <Forbidden />;
  const { code } = await params;
  return (
    <Screen title="Wristband">
      <WristbandView code={decodeURIComponent(code)} />
    </Screen>
  );
}
