// Stand-in for the "server-only" marker outside Next.js (vitest, CLI scripts): it has no effect there.
export {};
