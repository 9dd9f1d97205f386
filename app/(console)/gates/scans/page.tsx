import { GateScansScreen } from "@/components/gates/gate-scans-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { GateScansQuery } from "@/lib/shared/api/gates";

export default async function GateScansPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string>>;
}) {
  await pageUser("gates.view");
  const query = GateScansQuery.safeParse(await searchParams);
  return (
    <Screen page="gateScans">
      <GateScansScreen filter={query.success ? query.data : {}} />
    </Screen>
  );
}
