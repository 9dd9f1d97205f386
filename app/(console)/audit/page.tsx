import { Screen } from "@/components/screen";
import { AuditView } from "@/components/staff/audit-view";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("audit.view");
  return (
    <Screen page="audit">
      <AuditView />
    </Screen>
  );
}
