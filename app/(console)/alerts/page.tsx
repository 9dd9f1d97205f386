import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AlertsScreen } from "@/components/alerts/alerts-view";
import { Screen } from "@/components/screen";
import { textLinkClass } from "@/components/ui/class-names";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function Page() {
  const { user } = await pageUser("alerts.view");
  const t = await getTranslations("notify");
  return (
    <Screen page="alerts">
      {can(user.role, "contacts.manage") && (
        <p className="mb-4 text-sm">
          <Link className={textLinkClass} href="/alerts/notifications">
            {t("manageLink")}
          </Link>
        </p>
      )}
      <AlertsScreen canAcknowledge={can(user.role, "alerts.acknowledge")} />
    </Screen>
  );
}
