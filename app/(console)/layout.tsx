import { type ReactNode, Suspense } from "react";
import { DeniedNotice } from "@/components/denied-notice";
import { Nav } from "@/components/nav";
import { SearchBox } from "@/components/staff/search-box";
import { signedInUser } from "@/lib/server/http/page-guard";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await signedInUser();
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <Nav role={user.role} username={user.username} />
      <div className="flex min-w-0 flex-1 flex-col">
        <SearchBox />
        <main className="flex-1">
          <Suspense fallback={null}>
            <DeniedNotice />
          </Suspense>
          {children}
        </main>
      </div>
    </div>
  );
}
