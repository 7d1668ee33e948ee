import type { AuditRecord } from '../../protocol/audit.ts';

/**
 * Where the server's parts hand their audit records (server/audit/audit-log.ts keeps them in the
 * store). `record` resolves once the entry is stored; callers that must not fail because of the audit
 * (a refused sign-in) still await it so the entry is never lost silently.
 */
export interface AuditRecorder {
  record(entry: AuditRecord): Promise<void>;
}
