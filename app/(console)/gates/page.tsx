import { EntriesScreen } from "@/components/gates/entries-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function GatesPage() {
  const { user } = await pageUser("gates.view");
  return (
    <Screen page="gates">
      <EntriesScreen canManage={can(user.role, "gates.manage")} />
    </Screen>
  );
}
