import Link from "next/link";
import { getTranslations } from "next-intl/server";

/**
 * The console's own "not found" page: the framework's default carries an inline `<style>` that the
 * Content-Security-Policy (nonces only) refuses, so a mistyped address gets this one instead.
 */
export default async function NotFound() {
  const t = await getTranslations("notFound");
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <h1 className="mb-4 text-2xl font-semibold">{t("title")}</h1>
      <p className="mb-4 text-slate-700">{t("text")}</p>
      <Link href="/" className="text-blue-700 underline">
        {t("back")}
      </Link>
    </main>
  );
}
