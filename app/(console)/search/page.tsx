import { Suspense } from "react";
import { Screen } from "@/components/screen";
import { SearchResults } from "@/components/staff/search-results";
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
