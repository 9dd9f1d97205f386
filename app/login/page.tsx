import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LanguageSwitcher } from "@/components/language-switcher";
import { LoginForm } from "@/components/login-form";
import { loginPageState } from "@/lib/server/auth/login-page";
import { safeNextPath } from "@/lib/shared/safe-next";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { signedInHome, demoUsers } = await loginPageState();
  const { next } = await searchParams;
  if (signedInHome) redirect(signedInHome);
  const t = await getTranslations();
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <LanguageSwitcher className="mb-4 self-end" />
      <h1 className="mb-6 text-2xl font-semibold">{t("login.heading")}</h1>
      <LoginForm next={safeNextPath(next) ?? undefined} />
      {demoUsers.length > 0 && (
        <section
          aria-labelledby="demo-logins"
          className="mt-8 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm"
        >
          <h2 id="demo-logins" className="mb-2 font-semibold">
            {t("login.demoLogins")}
          </h2>
          <ul className="space-y-1">
            {demoUsers.map((u) => (
              <li key={u.username}>
                <span className="font-medium">{t(`roles.${u.role}`)}</span>: <code>{u.username}</code> /{" "}
                <code>{u.password}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
