import { type ReactNode, Suspense } from "react";
import { AlertBell } from "@/components/alert-bell";
import { DeniedNotice } from "@/components/denied-notice";
import { SearchBox } from "@/components/gate/search-box";
import { Nav } from "@/components/nav";
import { PushStreamProvider } from "@/components/ui/push-stream";
import { pageTheme } from "@/lib/server/auth/page-theme";
import { signedInUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await signedInUser();
  const theme = await pageTheme();
  return (
    // One push stream per browser tab: the mirror's changes refresh the screens at once.
    <PushStreamProvider>
      <div className="flex min-h-screen flex-col md:flex-row">
        <Nav role={user.role} username={user.username} theme={theme} />
        <div className="flex min-w-0 flex-1 flex-col">
          {/* The banner: the search first on every screen, the alerts bell at its end. */}
          <header>
            <SearchBox aside={can(user.role, "alerts.view") ? <AlertBell /> : undefined} />
          </header>
          <main className="flex-1">
            <Suspense fallback={null}>
              <DeniedNotice />
            </Suspense>
            {children}
          </main>
        </div>
      </div>
    </PushStreamProvider>
  );
}
