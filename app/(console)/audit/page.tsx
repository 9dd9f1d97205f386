import { Forbidden, Screen } from "@/components/screen";
import { AuditView } from "@/components/staff/audit-view";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page() {
  const { allowed } = await pageUser("audit.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Audit log">
      <AuditView />
    </Screen>
  );
}
