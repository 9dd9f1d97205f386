import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { pageTheme } from "@/lib/server/auth/page-theme";
import { pageClockOffsetMs } from "@/lib/server/http/page-guard";
import { themeClass } from "@/lib/shared/theme";
import "./globals.css";
import { Providers } from "./providers";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("app");
  return { title: t("title"), description: t("description") };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, theme, clockOffsetMs] = await Promise.all([getLocale(), pageTheme(), pageClockOffsetMs()]);
  return (
    <html lang={locale} className={themeClass(theme)}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <NextIntlClientProvider>
          <Providers clockOffsetMs={clockOffsetMs}>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
