import { Forbidden, Screen } from "@/components/screen";
import { TicketView } from "@/components/staff/ticket-view";
import { can } from "@/lib/permissions";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page({ params }: { params: Promise<{ code: string }> }) {
  const { user, allowed } = await pageUser("tickets.view");
  if (!allowed) return <Forbidden />;
  const { code } = await params;
  return (
    <Screen title="Ticket">
      <TicketView
        code={decodeURIComponent(code)}
        canCheckIn={can(user.role, "tickets.checkin")}
        canCancel={can(user.role, "tickets.cancel")}
      />
    </Screen>
  );
}
