import { Screen } from "@/components/screen";
import { TerminalScreen } from "@/components/terminals/terminal-view";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function Page({ params }: { params: Promise<{ device: string }> }) {
  const { user } = await pageUser("terminals.view");
  const { device } = await params;
  return (
    <Screen page="terminal">
      <TerminalScreen device={decodeURIComponent(device)} canManage={can(user.role, "terminals.manage")} />
    </Screen>
  );
}
