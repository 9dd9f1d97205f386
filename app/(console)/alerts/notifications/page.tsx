import { getTranslations } from "next-intl/server";
import { NotifyScreen } from "@/components/notify";
import { pageUser } from "@/lib/server/http/page-guard";

export default async function Page() {
  await pageUser("contacts.manage");
  const t = await getTranslations("notify");
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-4 text-xl font-semibold">{t("title")}</h1>
      <NotifyScreen />
    </section>
  );
}
