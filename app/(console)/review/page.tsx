import { ReviewQueue } from "@/components/review/review-queue";
import { Screen } from "@/components/screen";
import { pageUser } from "@/lib/server/http/page-guard";
import { can } from "@/lib/shared/permissions";

export default async function Page() {
  const { user } = await pageUser("review.view");
  return (
    <Screen page="review">
      <ReviewQueue canResolve={can(user.role, "review.resolve")} />
    </Screen>
  );
}
