import { ExchangeError } from '../../protocol/error-codes.ts';

/** The code and params a promise is refused with (fails when it is not refused with an ExchangeError). */
export async function refusalOf(promise: Promise<unknown>): Promise<{ code: string; params: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExchangeError) return { code: error.code, params: error.params };
    throw error;
  }
  throw new Error('expected a refusal');
}
