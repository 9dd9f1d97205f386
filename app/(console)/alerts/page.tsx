import { AlertsScreen } from "@/components/alerts/alerts-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function Page() {
  const { user } = await pageUser("alerts.view");
  return (
    <Screen page="alerts">
      <AlertsScreen canAcknowledge={can(user.role, "alerts.acknowledge")} />
    </Screen>
  );
}
