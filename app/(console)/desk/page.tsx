import { Forbidden, Screen } from "@/components/screen";
import { Desk } from "@/components/staff/desk";
import { can } from "@/lib/permissions";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page() {
  const { user, allowed } = await pageUser("topups.create");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Top-up desk">
      <Desk canTopup={can(user.role, "topups.create")} canWithdraw={can(user.role, "withdrawals.create")} />
    </Screen>
  );
}
