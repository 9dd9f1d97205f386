import { MisuseScreen } from "@/components/gates/misuse-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { MisuseQuery } from "@/lib/shared/api/gates";

export default async function MisusePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string>>;
}) {
  await pageUser("gates.view");
  const query = MisuseQuery.safeParse(await searchParams);
  return (
    <Screen page="misuse">
      <MisuseScreen caseId={query.success ? query.data.case : undefined} />
    </Screen>
  );
}
