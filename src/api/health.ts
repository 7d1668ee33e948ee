import { serverHealthSchema, type ServerHealth } from '../../protocol/health.ts';
import { requestJson } from '../../streams/api.ts';
import { API_BASE } from './http.ts';

/**
 * The exchange's health (GET /health, no sign-in). Polled in the background, so it goes around the
 * loading bar; an answer that is not the contract's is a failure like any other.
 */
export function fetchServerHealth(signal?: AbortSignal): Promise<ServerHealth> {
  return requestJson(
    { baseUrl: API_BASE },
    '/health',
    (body) => {
      const parsed = serverHealthSchema.safeParse(body);
      return parsed.success ? parsed.data : null;
    },
    { method: 'GET', ...(signal ? { signal } : {}) },
  );
}
