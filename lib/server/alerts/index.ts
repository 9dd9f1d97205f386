import "server-only";

/** What other domains may use of the alerts': the open alerts a role sees, most severe first. */
export { mostSevereOpen } from "./views";
