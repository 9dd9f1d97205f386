import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AlertsScreen } from "@/components/alerts/alerts-view";
import { textLinkClass } from "@/components/ui/class-names";
import { pageUser } from "@/lib/server/http/page-guard";
import { acknowledgeLink } from "@/lib/server/notify";
import { can } from "@/lib/shared/permissions";

/**
 * Where a message's acknowledgement link leads (after sign-in: the proxy sends a visitor without
 * a session to /login and back here). The link only opens the alert; acknowledging it is the
 * signed-in user's own act on this screen.
 */
export default async function Page({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const { user } = await pageUser("alerts.view");
  const t = await getTranslations("notify");
  const { token } = await searchParams;
  const read = await acknowledgeLink(typeof token === "string" ? token : "");
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-4 text-xl font-semibold">{t("ackHeading")}</h1>
      {read.ok ? (
        <AlertsScreen canAcknowledge={can(user.role, "alerts.acknowledge")} only={read.alertId} />
      ) : (
        <p role="alert" className="text-sm">
          {read.error === "expired" ? t("ackExpired") : t("ackInvalid")}
        </p>
      )}
      <p className="mt-4 text-sm">
        <Link className={textLinkClass} href="/alerts">
          {t("allAlerts")}
        </Link>
      </p>
    </section>
  );
}
