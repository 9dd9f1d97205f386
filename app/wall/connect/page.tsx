import { WallConnect } from "@/components/wall/wall-connect";

/** A wall's link (/wall/connect#token), opened once on the TV; reachable without a session. */
export default function WallConnectPage() {
  return <WallConnect />;
}
