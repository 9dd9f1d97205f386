import { NightView } from "@/components/reconciliation/night-view";
import { Forbidden, Screen } from "@/components/screen";
import { can } from "@/lib/permissions";
import { pageUser } from "@/lib/server/page-guard";

export default async function ReconciliationPage() {
  const { user, allowed } = await pageUser("reconciliation.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Night reconciliation">
      <NightView canSign={can(user.role, "reconciliation.signoff")} />
    </Screen>
  );
}
