import type { z } from 'zod';
import { chatEventSchema, chatOutgoingSchema } from '../../protocol/chat.ts';
import { clearingChangeSchema } from '../../protocol/clearing.ts';
import { operatorSnapshotSchema } from '../../protocol/operator.ts';
import { orderEntryCommandSchema, orderEntryReplySchema } from '../../protocol/order-entry.ts';
import { destinations, type ParsedDestination } from '../../protocol/destinations.ts';
import { errorCodes } from '../../protocol/error-codes.ts';
import {
  assetActivitySchema,
  bookDeltaSchema,
  bookSnapshotSchema,
  marketWatchRowSchema,
  notificationSchema,
  orderUpdateSchema,
  ownBestSchema,
  sessionStatsSchema,
  tradeSchema,
  transactionSchema,
} from '../../protocol/market-data.ts';
import { phaseUpdateSchema } from '../../protocol/reference.ts';
import { workflowChangeSchema } from '../../protocol/workflows.ts';
import { CANCEL_ON_DISCONNECT_HEADER, MAX_CANCEL_GRACE_MS } from '../trading/cancel-on-disconnect.ts';
import { componentsOf, protocolSchemaNames, type JsonSchema } from './openapi.ts';

export type DestinationKind = ParsedDestination['kind'];

interface ChannelDescription {
  /** The destination's name, with `{assetId}` or `{marketId}` where a topic takes an id. */
  address: string;
  parameter?: 'assetId' | 'marketId';
  summary: string;
  /** Messages on it, from protocol/ (several when a channel carries a snapshot then deltas). */
  messages: z.ZodType[];
  /** SEND from the client (the chat), rather than SUBSCRIBE. */
  send?: boolean;
}

/** Every destination kind parseDestination knows, with its payload schemas; `satisfies` makes a missing kind a compile error. */
export const channelCatalogue = {
  book: { address: destinations.book('{assetId}'), parameter: 'assetId', summary: 'Order book of an asset: a snapshot on subscribe, then deltas with a contiguous seq.', messages: [bookSnapshotSchema, bookDeltaSchema] },
  trades: { address: destinations.trades('{assetId}'), parameter: 'assetId', summary: 'Trades on an asset (anonymous).', messages: [tradeSchema] },
  marketWatch: { address: destinations.marketWatch('{marketId}'), parameter: 'marketId', summary: 'Market watch rows of a market.', messages: [marketWatchRowSchema] },
  phase: { address: destinations.phase('{marketId}'), parameter: 'marketId', summary: 'Session phase of a market and its assets.', messages: [phaseUpdateSchema] },
  stats: { address: destinations.stats('{assetId}'), parameter: 'assetId', summary: 'Session statistics of an asset.', messages: [sessionStatsSchema] },
  activity: { address: destinations.activity('{assetId}'), parameter: 'assetId', summary: 'Asset activity: orders created, traded, delta-T start.', messages: [assetActivitySchema] },
  myOrders: { address: destinations.myOrders, summary: "The user's orders as they change, with the journal seq.", messages: [orderUpdateSchema] },
  myTrades: { address: destinations.myTrades, summary: "Transactions of the user's clients (with both sides).", messages: [transactionSchema] },
  myMarketWatch: { address: destinations.myMarketWatch, summary: "The user's own best bid and ask per asset.", messages: [ownBestSchema] },
  notifications: { address: destinations.notifications, summary: 'Notifications: orders, phases, clearing, workflows.', messages: [notificationSchema] },
  chat: { address: destinations.chat, summary: 'Chat messages, presence and read marks.', messages: [chatEventSchema] },
  clearing: { address: destinations.clearing, summary: "Clearing changes of the user's clients; the tab named refetches.", messages: [clearingChangeSchema] },
  workflows: { address: destinations.workflows, summary: 'Changes of workflow instances the user takes part in.', messages: [workflowChangeSchema] },
  workflowApprovals: { address: destinations.workflowApprovals, summary: 'Every workflow change, for administrators (the approval queues).', messages: [workflowChangeSchema] },
  operator: { address: destinations.operator, summary: 'The operator console: a snapshot of markets, participants, connections and health, for administrators.', messages: [operatorSnapshotSchema] },
  orderReplies: { address: destinations.orderReplies, summary: 'One reply per order command sent to /app/orders, with its correlation id.', messages: [orderEntryReplySchema] },
  chatSend: { address: destinations.chatSend, summary: 'SEND a chat message.', messages: [chatOutgoingSchema], send: true },
  orderEntry: { address: destinations.orderEntry, summary: 'SEND an order command (add, modify, cancel); the RECEIPT follows its acknowledgement.', messages: [orderEntryCommandSchema], send: true },
} satisfies Record<DestinationKind, ChannelDescription>;

/**
 * The headers of the STOMP CONNECT frame, as a JSON Schema (the extension `x-stomp-connect-headers` of
 * the server: AsyncAPI's STOMP binding defines no fields). `cancel-on-disconnect` is the kill switch of
 * server/trading/cancel-on-disconnect.ts; its pattern and `x-maximum` say what cancelGraceOf accepts.
 */
export const connectHeadersSchema: JsonSchema = {
  type: 'object',
  required: ['Authorization'],
  properties: {
    Authorization: { type: 'string', pattern: '^Bearer \\S+$', description: 'The bearer token of POST /session/api/login.' },
    'heart-beat': { type: 'string', pattern: '^\\s*\\d{1,9}\\s*,\\s*\\d{1,9}\\s*$', description: 'STOMP 1.2 heart-beating: ms between the frames the client sends, ms it wants to receive (0: none).' },
    [CANCEL_ON_DISCONNECT_HEADER]: {
      type: 'string',
      pattern: '^\\s*\\d{1,6}\\s*$',
      'x-maximum': MAX_CANCEL_GRACE_MS,
      examples: ['5000'],
      description:
        `Cancel-on-disconnect: a grace in ms, a whole number from 0 to ${MAX_CANCEL_GRACE_MS}. When the session ends without a DISCONNECT frame (socket dropped, heart-beat lost, token expired, any ERROR), every live order of the user's clients is cancelled once the grace has passed, unless a session of the same user that also carries this header connects within it. With several sessions carrying it, only the last of them to end counts: while another is open, a dropped one cancels nothing. A DISCONNECT keeps the orders; a server shutdown cancels nothing. Another value is refused with an ERROR STOMP_CANCEL_ON_DISCONNECT_INVALID { max }; an administrator's with FORBIDDEN.`,
    },
  },
};

const schemaRef = (name: string) => `#/components/schemas/${name}`;
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/**
 * The AsyncAPI 3 document of the STOMP channel (/session/ws): one channel per destination kind, its
 * messages' payloads converted from the zod schemas in protocol/, a receive operation per subscribable
 * destination and a send operation for /app/chat. Errors come as ERROR frames with a catalogue code.
 */
export function buildAsyncApiDocument(): JsonSchema {
  const names = protocolSchemaNames();
  const channels: Record<string, JsonSchema> = {};
  const operations: Record<string, JsonSchema> = {};
  const messages: Record<string, JsonSchema> = {};
  for (const [kind, channel] of Object.entries(channelCatalogue) as Array<[DestinationKind, ChannelDescription]>) {
    const channelMessages: Record<string, JsonSchema> = {};
    for (const schema of channel.messages) {
      const name = names.get(schema)!;
      messages[name] ??= { name, contentType: 'application/json', payload: { $ref: schemaRef(name) } };
      channelMessages[lowerFirst(name)] = { $ref: `#/components/messages/${name}` };
    }
    channels[kind] = {
      address: channel.address,
      summary: channel.summary,
      messages: channelMessages,
      ...(channel.parameter ? { parameters: { [channel.parameter]: { description: `The ${channel.parameter === 'assetId' ? 'asset' : 'market'} id (letters, digits, _ and -, up to 64).` } } } : {}),
    };
    operations[`${channel.send ? 'send' : 'receive'}${kind.charAt(0).toUpperCase()}${kind.slice(1)}`] = {
      action: channel.send ? 'send' : 'receive',
      channel: { $ref: `#/channels/${kind}` },
      summary: channel.send ? `SEND to ${channel.address}` : `SUBSCRIBE to ${channel.address}`,
      messages: Object.keys(channelMessages).map((message) => ({ $ref: `#/channels/${kind}/messages/${message}` })),
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Exchange realtime channel (STOMP over WebSocket)',
      version: '1',
      description:
        `CONNECT with the header \`Authorization: Bearer <token>\` (the token of POST /session/api/login), and optionally \`${CANCEL_ON_DISCONNECT_HEADER}: <graceMs>\` (0 to ${MAX_CANCEL_GRACE_MS}) for the user's orders to be cancelled when the session ends without a DISCONNECT (the server's \`x-stomp-connect-headers\`), then SUBSCRIBE to the destinations below; topics only of markets the user may see, private queues (/user/queue/...) for every signed-in user. A book is kept from the snapshot sent on SUBSCRIBE, then deltas applied in seq order; a gap in seq means: unsubscribe and subscribe again for a fresh snapshot (or GET /session/api/books/{assetId}). Prices and quantities are integers in the asset's minor units. A refusal is an ERROR frame whose \`code\` header and body carry a catalogue code.`,
    },
    defaultContentType: 'application/json',
    servers: {
      exchange: {
        host: '{host}',
        pathname: '/session/ws',
        protocol: 'ws',
        description: 'STOMP 1.2 frames over a WebSocket on the same host as the web app.',
        variables: { host: { default: 'localhost:8080', description: 'Host and port of the exchange server.' } },
        'x-stomp-connect-headers': connectHeadersSchema,
      },
    },
    channels,
    operations,
    components: {
      messages,
      schemas: { ...componentsOf(names, 'output'), ErrorCode: { type: 'string', enum: errorCodes } },
    },
  };
}
