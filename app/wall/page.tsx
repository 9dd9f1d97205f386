import { PushStreamProvider } from "@/components/ui/push-stream";
import { WallView } from "@/components/wall/wall-view";
import { wallViewer } from "@/lib/server/http/page-guard";

export const dynamic = "force-dynamic";

/** The wall: outside the console's layout (no navigation, no search), for a TV; pushed like the console. */
export default async function WallPage() {
  await wallViewer();
  return (
    <PushStreamProvider>
      <WallView />
    </PushStreamProvider>
  );
}
