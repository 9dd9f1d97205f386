import { ConnectionView } from "@/components/connection-view";
import { Forbidden, Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/page-guard";

export default async function ConnectionPage() {
  const { allowed } = await pageUser("connection.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Connection">
      <ConnectionView />
    </Screen>
  );
}
