/**
 * The app runs under a Content-Security-Policy without 'unsafe-eval' (server/http/security-headers.ts).
 * Zod compiles fast object parsers with `new Function` and probes for it when the first object schema
 * is built; under that policy the probe fails harmlessly, but the browser still reports a violation.
 * Jitless parsing skips the probe. Zod reads its config from this global when it loads, so this module
 * imports nothing and index.html runs it as its own script before main.tsx (a chunk of the app that
 * builds schemas would otherwise run first).
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;

export {};
