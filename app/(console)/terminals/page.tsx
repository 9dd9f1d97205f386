import { Screen } from "@/components/screen";
import { TerminalsScreen } from "@/components/terminals/terminals-view";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("terminals.view");
  return (
    <Screen page="terminals">
      <TerminalsScreen />
    </Screen>
  );
}
