"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { useErrorText } from "@/components/ui/error-text";
import { useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";

/**
 * Opening a wall's link on the TV: the token is read from the address's #fragment (never sent to a
 * server or kept in its logs), traded once for the wall's session cookie and wiped from the address
 * bar and the history; then the wall.
 */
export function WallConnect() {
  const t = useTranslations("wall.connect");
  const errorText = useErrorText();
  const router = useRouter();
  const started = useRef(false);
  const [missing, setMissing] = useState(false);
  const connect = useWrite(endpoints.wall.connect, { onSuccess: () => router.replace("/wall") });
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = window.location.hash.slice(1);
    window.history.replaceState(null, "", window.location.pathname);
    if (!token) setMissing(true);
    else connect.mutate({ body: { token } });
  }, [connect]);
  return (
    <main className="dark flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-50 p-8 text-slate-900">
      <h1 className="text-4xl font-semibold">{t("heading")}</h1>
      {missing ? (
        <p role="alert" className="text-2xl text-red-800">
          {t("missing")}
        </p>
      ) : connect.error ? (
        <p role="alert" className="text-2xl text-red-800">
          {errorText(connect.error)}
        </p>
      ) : (
        <p role="status" className="text-2xl text-slate-700">
          {t("connecting")}
        </p>
      )}
    </main>
  );
}
