import { ensurePgliteTemplate } from '../../server/store/pglite-template.ts';

/** Vitest global setup: every in-memory store of the run starts from one migrated template (server/store/pglite-template.ts). */
export default async function setup(): Promise<void> {
  process.env.PGLITE_TEMPLATE = await ensurePgliteTemplate();
}
