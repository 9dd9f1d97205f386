import { redirect } from "next/navigation";
import { LoginForm } from "@/components/login-form";
import { homeFor } from "@/lib/permissions";
import { getDashboard } from "@/lib/server/dashboard";
import { DEMO_USERS } from "@/lib/server/demo-users";
import { currentUser } from "@/lib/server/guard";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const dashboard = await getDashboard();
  const user = await currentUser(dashboard);
  const { next } = await searchParams;
  if (user) redirect(homeFor(user.role));
  const { config } = dashboard;
  const sandbox = config.SANDBOX === "on" && config.CASHLESS_API_KEY.startsWith("eak_test_");
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <h1 className="mb-6 text-2xl font-semibold">Event operations console</h1>
      <LoginForm next={next?.startsWith("/") && !next.startsWith("//") ? next : undefined} />
      {sandbox && (
        <section
          aria-labelledby="demo-logins"
          className="mt-8 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm"
        >
          <h2 id="demo-logins" className="mb-2 font-semibold">
            Sandbox demo logins
          </h2>
          <ul className="space-y-1">
            {DEMO_USERS.map((u) => (
              <li key={u.username}>
                <span className="font-medium">{u.role}</span>: <code>{u.username}</code> /{" "}
                <code>{u.password}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
