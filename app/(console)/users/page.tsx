import { Screen } from "@/components/screen";
import { UsersScreen } from "@/components/users/users-view";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  const { user } = await pageUser("users.manage");
  return (
    <Screen page="users">
      <UsersScreen me={user.username} />
    </Screen>
  );
}
