import { WallView } from "@/components/wall/wall-view";
import { wallViewer } from "@/lib/server/http/page-guard";

export const dynamic = "force-dynamic";

/** The wall: outside the console's layout (no navigation, no search), for a TV. */
export default async function WallPage() {
  await wallViewer();
  return <WallView />;
}
