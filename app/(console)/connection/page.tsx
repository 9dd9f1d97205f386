import { ConnectionView } from "@/components/connection-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function ConnectionPage() {
  await pageUser("connection.view");
  return (
    <Screen page="connection">
      <ConnectionView />
    </Screen>
  );
}
