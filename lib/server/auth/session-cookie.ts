import "server-only";

/** Name of the session cookie (shared by the proxy and the session module). */
export const SESSION_COOKIE = "eoc_session";
