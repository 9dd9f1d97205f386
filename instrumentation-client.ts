/**
 * Runs in the browser before the console's own code (ahead of hydration). The console's
 * Content-Security-Policy has no 'unsafe-eval', so zod must not probe `new Function` to decide
 * whether it may compile its parsers: the browser reports even a caught probe as a policy
 * violation. Zod reads its configuration from this global, set here before it builds a schema.
 */
const holder = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;
