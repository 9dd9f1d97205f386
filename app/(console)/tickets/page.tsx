import { Screen } from "@/components/screen";
import { CodeLookup, TicketList } from "@/components/staff/ticket-list";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("tickets.view");
  return (
    <Screen page="tickets">
      <div className="space-y-4">
        <CodeLookup kind="tickets" />
        <TicketList />
      </div>
    </Screen>
  );
}
