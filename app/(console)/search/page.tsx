import { Suspense } from "react";
import { SearchResults } from "@/components/gate/search-results";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("tickets.view");
  return (
    <Screen page="search">
      <Suspense fallback={null}>
        <SearchResults />
      </Suspense>
    </Screen>
  );
}
