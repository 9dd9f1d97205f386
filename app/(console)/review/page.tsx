import { Forbidden, Screen } from "@/components/screen";
import { ReviewQueue } from "@/components/staff/review-queue";
import { can } from "@/lib/permissions";
import { pageUser } from "@/lib/server/page-guard";

export default async function Page() {
  const { user, allowed } = await pageUser("review.view");
  if (!allowed) return <Forbidden />;
  return (
    <Screen title="Review queue">
      <ReviewQueue canResolve={can(user.role, "review.resolve")} />
    </Screen>
  );
}
