import { TerminalsScreen } from "@/components/attention/terminals-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("terminals.view");
  return (
    <Screen page="terminals">
      <TerminalsScreen />
    </Screen>
  );
}
