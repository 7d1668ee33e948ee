/**
 * Order entry over STOMP (issue 16, item 4): a SEND to /app/orders carries one OrderEntryCommand
 * (protocol/order-entry.ts). It runs through the REST path (order-commands.ts: TradingService's rules,
 * rights, idempotency keys and journal acknowledgement), then one OrderEntryReply goes to the sending
 * session's /user/queue/order-replies. The hook's promise settles only after that, so the gateway sends
 * the SEND's RECEIPT once the command is durable, and holds the session's next frames until then:
 * commands of one session are acknowledged in the order sent (one in flight per session; behind it
 * the gateway queues a bounded number of frames, then stops reading the socket).
 *
 * A refusal, or a body that is not JSON or not a command, is a reply with ok:false and the catalogue
 * code, never an ERROR frame: a bad order does not end the session.
 */
import { apiError, destinations, ExchangeError, orderEntryCommandSchema, type ApiError, type OrderEntryReply } from '../../protocol/index.ts';
import type { Principal, SendSession } from '../gateway/stomp-gateway.ts';
import { parseWith } from '../http/validation.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { executeOrderCommand } from './order-commands.ts';
import type { TradingService } from './trading-service.ts';

export interface OrderEntryOptions {
  trading: TradingService;
  /** The user's current record (rights, scopes, clients), as REST reads it for each request. */
  userOf(userId: string): Promise<UserRecord>;
  /** A failure that is not a refusal (a bug): logged, answered UNKNOWN_ERROR. Default console.error. */
  onUnexpected?(error: unknown): void;
}

export class OrderEntry {
  constructor(private readonly options: OrderEntryOptions) {}

  /** The gateway's onSend for /app/orders: never rejects (a rejection would end the session with an ERROR frame). */
  readonly onSend = async (principal: Principal, _destination: string, body: string, _headers: Record<string, string>, session: SendSession): Promise<void> => {
    session.reply(destinations.orderReplies, await this.execute(principal.userId, body));
  };

  /** One command's reply: ok with the journal seq and the order, or the refusal's code and params. */
  async execute(userId: string, body: string): Promise<OrderEntryReply> {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return refused('', apiError('REQUEST_MALFORMED_JSON'));
    }
    const correlationId = readableCorrelationId(json);
    try {
      const command = parseWith(orderEntryCommandSchema, json);
      const user = await this.options.userOf(userId);
      const update = await executeOrderCommand(this.options.trading, user, command);
      return { ok: true, correlationId: command.correlationId, seq: update.seq, order: update.order };
    } catch (error) {
      return refused(correlationId, this.refusalOf(error));
    }
  }

  private refusalOf(error: unknown): ApiError {
    if (error instanceof ExchangeError) return error.toJSON();
    (this.options.onUnexpected ?? ((e: unknown) => console.error('order entry over STOMP failed:', e)))(error);
    return apiError('UNKNOWN_ERROR');
  }
}

function refused(correlationId: string, error: ApiError): OrderEntryReply {
  return { ok: false, correlationId, code: error.code, params: (error.params ?? {}) as Record<string, string | number> };
}

/** The body's correlationId when it is one the schema would take (a string of 1-64 characters); '' otherwise. */
function readableCorrelationId(json: unknown): string {
  const value = json && typeof json === 'object' ? (json as { correlationId?: unknown }).correlationId : undefined;
  return typeof value === 'string' && value.length >= 1 && value.length <= 64 ? value : '';
}
