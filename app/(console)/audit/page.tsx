import { AuditView } from "@/components/audit/audit-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("audit.view");
  return (
    <Screen page="audit">
      <AuditView />
    </Screen>
  );
}
