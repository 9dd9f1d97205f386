import { CodeLookup, TicketList } from "@/components/gate/ticket-list";
import { Screen } from "@/components/screen";
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
