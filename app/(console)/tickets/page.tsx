import { Forbidden, Screen } from "@/components/screen";
import { CodeLookup, TicketList } from "@/components/staff/ticket-list";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page() {
  const { allowed } = await pageUser("tickets.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Tickets">
      <div className="space-y-4">
        <CodeLookup kind="tickets" />
        <TicketList />
      </div>
    </Screen>
  );
}
