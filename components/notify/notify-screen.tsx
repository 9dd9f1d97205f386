"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { textLinkClass } from "@/components/ui/class-names";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { ContactPoints } from "./contact-points";
import { Routes } from "./routes";

/** The manager's notifications: contact points and routes. */
export function NotifyScreen() {
  const t = useTranslations("notify");
  const query = useEndpoint(endpoints.notify.settings, {});
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link className={textLinkClass} href="/alerts">
          {t("allAlerts")}
        </Link>
      </p>
      {query.isPending ? (
        <Loading what={t("loading")} />
      ) : query.isError ? (
        <ErrorBox error={query.error} />
      ) : (
        <>
          <ContactPoints settings={query.data} />
          <Routes settings={query.data} />
        </>
      )}
    </div>
  );
}
