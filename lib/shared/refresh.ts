/** Every live view refreshes every 30 s, and not at all while its tab is in the background. */
export const LIVE_REFRESH_MS = 30_000;

/** Until a console connecting for the first time has its first summary, its screens ask every 2 s. */
export const STARTING_REFRESH_MS = 2000;
