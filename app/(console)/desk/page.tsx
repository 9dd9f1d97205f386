import { Desk } from "@/components/desk/desk";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function Page() {
  const { user } = await pageUser("topups.create");
  return (
    <Screen page="desk">
      <Desk canTopup={can(user.role, "topups.create")} canWithdraw={can(user.role, "withdrawals.create")} />
    </Screen>
  );
}
