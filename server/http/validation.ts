import type { z } from 'zod';
import { apiError, ExchangeError } from '../../protocol/index.ts';

/** Parses a body, query or params object with its schema; the first issue becomes REQUEST_INVALID {field, issue}. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : issue.path.join('.') || 'body';
  throw new ExchangeError(apiError('REQUEST_INVALID', { field, issue: issue.code }));
}
