import { ImportView } from "@/components/imports/import-view";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("tickets.import");
  return (
    <Screen page="import">
      <ImportView />
    </Screen>
  );
}
