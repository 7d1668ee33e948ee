import type { TestServer } from '../../tests/helpers/test-server.ts';

/** What one attempt found: `held` when the server refused or resisted it as documented. */
export interface AttackOutcome {
  held: boolean;
  /** What the server did, short: "401 AUTH_TOKEN_INVALID", "429 after 5", "closed with ERROR STOMP_FRAME_TOO_LARGE". */
  outcome: string;
}

/**
 * One attempt of the attack suite (`npm run security:check`). Each scripts/security/<area>.attacks.ts
 * exports `attacks: Attack[]`; the runner loads every such file, runs each attack against a fresh
 * real server (PGlite in memory, demo users) and prints one table row per attack.
 */
export interface Attack {
  area: string;
  name: string;
  /** What the server should do, as docs/reliability.md states it. */
  expected: string;
  run(target: TestServer): Promise<AttackOutcome>;
}
