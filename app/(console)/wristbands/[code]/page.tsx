import { WristbandView } from "@/components/gate/wristband-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page({ params }: { params: Promise<{ code: string }> }) {
  await pageUser("wristbands.view");
  const { code } = await params;
  return (
    <Screen page="wristband">
      <WristbandView code={decodeURIComponent(code)} />
    </Screen>
  );
}
