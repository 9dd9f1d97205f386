import { Forbidden, Screen } from "@/components/screen";
import { ImportView } from "@/components/staff/import-view";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page() {
  const { allowed } = await pageUser("tickets.import");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Ticket import">
      <ImportView />
    </Screen>
  );
}
