import { CodeLookup } from "@/components/gate/ticket-list";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("wristbands.view");
  return (
    <Screen page="wristbands">
      <CodeLookup kind="wristbands" />
    </Screen>
  );
}
