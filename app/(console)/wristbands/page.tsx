import { Forbidden, Screen } from "@/components/screen";
import { CodeLookup } from "@/components/staff/ticket-list";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page() {
  const { allowed } = await pageUser("wristbands.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Wristbands">
      <CodeLookup kind="wristbands" />
    </Screen>
  );
}
