import { NightView } from "@/components/night/night-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function ReconciliationPage() {
  const { user } = await pageUser("reconciliation.view");
  return (
    <Screen page="reconciliation">
      <NightView
        canSign={can(user.role, "reconciliation.signoff")}
        canApprove={can(user.role, "reconciliation.approve")}
        username={user.username}
      />
    </Screen>
  );
}
