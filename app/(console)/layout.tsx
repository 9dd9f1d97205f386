import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Nav } from "@/components/nav";
import { SearchBox } from "@/components/staff/search-box";
import { getDashboard } from "@/lib/server/dashboard";
import { currentUser } from "@/lib/server/guard";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser(await getDashboard());
  if (!user) redirect("/login");
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <Nav role={user.role} username={user.username} />
      <div className="flex flex-1 flex-col">
        <SearchBox />
        <main className="flex-1">{children}</main>
      </div>
    </div>
  );
}
