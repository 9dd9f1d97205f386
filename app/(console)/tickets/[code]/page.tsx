import { TicketView } from "@/components/gate/ticket-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function Page({ params }: { params: Promise<{ code: string }> }) {
  const { user } = await pageUser("tickets.view");
  const { code } = await params;
  return (
    <Screen page="ticket">
      <TicketView
        code={decodeURIComponent(code)}
        canCheckIn={can(user.role, "tickets.checkin")}
        canOverride={can(user.role, "tickets.checkin_override")}
        canCancel={can(user.role, "tickets.cancel")}
      />
    </Screen>
  );
}
