import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT_AMOUNT_DECIMALS,
  apiError,
  ExchangeError,
  limitsQuerySchema,
  positionsQuerySchema,
  type ClientLimits,
  type Position,
} from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { Engine } from '../engine/engine.ts';
import type { EngineEvent, TradeEvent } from '../engine/types.ts';
import type { AssetRecord, Client } from '../store/reference.repository.ts';
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import type { ReadModelProjector } from '../trading/read-model-projector.ts';
import type { Sequencer } from '../trading/sequencer.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface AccountRoutesOptions {
  auth: AuthService;
  store: Store;
  sequencer: Sequencer;
  projector: ReadModelProjector;
  assets: readonly AssetRecord[];
}

interface AssetScale {
  marketId: string;
  priceDecimals: number;
  quantityDecimals: number;
}

/** One client's trades on one asset in one session, one side: sums kept exact. */
interface Leg {
  qty: bigint;
  /** Σ price × qty in price and quantity minor units (for the average price). */
  raw: bigint;
  /** Σ of each trade's value in amount units, rounded up per trade as the engine values it. */
  value: bigint;
  trades: number;
}

interface Aggregate {
  clientCode: string;
  assetId: string;
  sessionDate: string;
  buy: Leg;
  sell: Leg;
}

const emptyLeg = (): Leg => ({ qty: 0n, raw: 0n, value: 0n, trades: 0 });

function ceilDiv(numerator: bigint, divisor: bigint): bigint {
  const quotient = numerator / divisor;
  return numerator % divisor === 0n ? quotient : quotient + 1n;
}

function safe(value: bigint): number {
  const asNumber = Number(value);
  if (!Number.isSafeInteger(asNumber)) throw new RangeError('account figure exceeds the safe integer range');
  return asNumber;
}

/**
 * Per client and asset, the current session's bought and sold quantity and value. Kept in memory
 * from the engine's trade events (O(1) per trade, no scan per request), seeded once at start from
 * the transactions read model. Transaction ids come from the engine's counter in journal order, so
 * the seed covers ids up to the store's highest and live trades above it are added exactly once.
 */
export class PositionBook {
  private readonly aggregates = new Map<string, Aggregate>();
  private pending: TradeEvent[] | null = [];
  private seededUpTo = 0n;
  readonly ready: Promise<void>;

  constructor(
    private readonly scales: ReadonlyMap<string, AssetScale>,
    private readonly sessionDateOf: (assetId: string) => string | undefined,
    seed: () => Promise<{ upToId: bigint; rows: SeedRow[] }>,
  ) {
    this.ready = seed().then(({ upToId, rows }) => {
      this.seededUpTo = upToId;
      for (const row of rows) {
        const aggregate = this.aggregateFor(row.clientCode, row.assetId, row.sessionDate);
        aggregate[row.buy ? 'buy' : 'sell'] = { qty: BigInt(row.qty), raw: BigInt(row.raw), value: BigInt(row.value), trades: row.trades };
      }
      const waiting = this.pending ?? [];
      this.pending = null;
      for (const trade of waiting) this.apply(trade);
    });
  }

  onEvents = (events: readonly EngineEvent[]): void => {
    for (const event of events) {
      if (event.type !== 'trade') continue;
      if (this.pending) this.pending.push(event);
      else this.apply(event);
    }
  };

  /** Positions of these clients on assets whose session is the current one. */
  positions(clientCodes: ReadonlySet<string>, assetFilter: (assetId: string) => boolean): Position[] {
    const out: Position[] = [];
    for (const aggregate of this.aggregates.values()) {
      if (!clientCodes.has(aggregate.clientCode) || !assetFilter(aggregate.assetId)) continue;
      if (aggregate.sessionDate !== this.sessionDateOf(aggregate.assetId)) continue;
      out.push(this.toWire(aggregate));
    }
    return out.sort((a, b) => (a.clientCode === b.clientCode ? a.assetId.localeCompare(b.assetId) : a.clientCode.localeCompare(b.clientCode)));
  }

  private apply(trade: TradeEvent): void {
    if (BigInt(trade.transactionId) <= this.seededUpTo) return;
    const { assetId, sessionDate: txDate } = trade.product;
    const scale = this.scales.get(assetId);
    if (!scale) return;
    const raw = BigInt(trade.price) * BigInt(trade.qty);
    const shift = ACCOUNT_AMOUNT_DECIMALS - scale.priceDecimals - scale.quantityDecimals;
    const value = shift >= 0 ? raw * 10n ** BigInt(shift) : ceilDiv(raw, 10n ** BigInt(-shift));
    for (const [clientCode, side] of [[trade.buyer, 'buy'], [trade.seller, 'sell']] as const) {
      const aggregate = this.aggregateFor(clientCode, assetId, txDate);
      if (aggregate.sessionDate !== txDate) continue; // an older session's late trade: not this session's
      const leg = aggregate[side];
      leg.qty += BigInt(trade.qty);
      leg.raw += raw;
      leg.value += value;
      leg.trades += 1;
    }
  }

  /** The aggregate of the client's latest session on the asset; a newer session starts from zero. */
  private aggregateFor(clientCode: string, assetId: string, sessionDate: string): Aggregate {
    const key = `${clientCode}\u0000${assetId}`;
    const current = this.aggregates.get(key);
    if (current && current.sessionDate >= sessionDate) return current;
    const fresh: Aggregate = { clientCode, assetId, sessionDate, buy: emptyLeg(), sell: emptyLeg() };
    this.aggregates.set(key, fresh);
    return fresh;
  }

  private toWire(aggregate: Aggregate): Position {
    const { buy, sell } = aggregate;
    // Rounded half up: (2·raw + qty) / (2·qty).
    const average = (leg: Leg) => (leg.qty === 0n ? null : safe((2n * leg.raw + leg.qty) / (2n * leg.qty)));
    return {
      clientCode: aggregate.clientCode,
      assetId: aggregate.assetId,
      marketId: this.scales.get(aggregate.assetId)?.marketId ?? '',
      sessionDate: aggregate.sessionDate,
      boughtQty: safe(buy.qty),
      soldQty: safe(sell.qty),
      netQty: safe(buy.qty - sell.qty),
      avgBuyPrice: average(buy),
      avgSellPrice: average(sell),
      boughtValue: safe(buy.value),
      soldValue: safe(sell.value),
      tradedValue: safe(buy.value + sell.value),
      trades: buy.trades + sell.trades,
    };
  }
}

export interface SeedRow {
  assetId: string;
  sessionDate: string;
  clientCode: string;
  buy: boolean;
  qty: string;
  raw: string;
  value: string;
  trades: number;
}

/** The current sessions' transactions from the read model, summed per asset, client and side (numeric: exact). */
async function seedFromStore(store: Store, projector: ReadModelProjector, sessions: Array<[string, string]>): Promise<{ upToId: bigint; rows: SeedRow[] }> {
  // Replayed events reach only the projector: once it has written them, the store holds every trade so far.
  await projector.settled().catch(() => {});
  const [top] = await store.db.query<{ max_id: string | number | null }>('select max(transaction_id) as max_id from transactions');
  const upToId = BigInt(top?.max_id ?? 0);
  if (sessions.length === 0 || upToId === 0n) return { upToId, rows: [] };
  const rows = await store.db.query<{ asset_id: string; session_date: string; client_code: string; buy: boolean; qty: string; raw: string; value: string; trades: number }>(
    `with current_sessions as (select * from unnest($1::text[], $2::text[]) as c(asset_id, session_date)),
     legs as (
       select t.asset_id, c.session_date, t.buyer as client_code, true as buy, (t.data->>'qty')::numeric as qty, (t.data->>'price')::numeric as price
         from transactions t join current_sessions c on c.asset_id = t.asset_id and t.data->>'txDate' = c.session_date
        where t.transaction_id <= $3
       union all
       select t.asset_id, c.session_date, t.seller, false, (t.data->>'qty')::numeric, (t.data->>'price')::numeric
         from transactions t join current_sessions c on c.asset_id = t.asset_id and t.data->>'txDate' = c.session_date
        where t.transaction_id <= $3
     )
     select l.asset_id, l.session_date, l.client_code, l.buy,
            sum(l.qty)::text as qty,
            sum(l.qty * l.price)::text as raw,
            sum(ceil(l.qty * l.price / power(10::numeric, (a.spec->>'priceDecimals')::int + (a.spec->>'quantityDecimals')::int - $4)))::text as value,
            count(*)::int as trades
       from legs l join assets a on a.id = l.asset_id
      group by l.asset_id, l.session_date, l.client_code, l.buy`,
    [sessions.map(([assetId]) => assetId), sessions.map(([, date]) => date), upToId.toString(), ACCOUNT_AMOUNT_DECIMALS],
  );
  return {
    upToId,
    rows: rows.map((row) => ({
      assetId: row.asset_id,
      sessionDate: row.session_date,
      clientCode: row.client_code,
      buy: row.buy,
      // numeric::text of a sum of integers has no fraction part
      qty: row.qty.split('.')[0]!,
      raw: row.raw.split('.')[0]!,
      value: row.value.split('.')[0]!,
      trades: Number(row.trades),
    })),
  };
}

/**
 * Who may see which client's account: administrators every client; an agency every client of its
 * agency; brokers, clients and terminals (read-only desks) the clients they act for.
 */
export function visibleClients(user: UserRecord, clients: readonly Client[]): Client[] {
  if (user.roles.includes('administrator')) return [...clients];
  const own = new Set(user.clientCodes);
  const agency = user.roles.includes('agency') ? user.agencyId : null;
  return clients.filter((client) => own.has(client.code) || (agency !== null && client.agencyId === agency));
}

function engineLimits(engine: Engine, client: Client, currency: string, maxContracts: number | null): ClientLimits {
  const figures = engine.getClientFinancials(client.code);
  const openOrdersValue = figures?.openValue ?? 0;
  const tradedValue = figures?.tradedValue ?? 0;
  const reserved = figures?.reservedMargin ?? 0;
  const tradesMargin = figures?.tradesMargin ?? 0;
  const funds = figures?.funds ?? null;
  return {
    client: { code: client.code, name: client.name, acerCode: client.acerCode, agencyId: client.agencyId, active: client.active },
    currency,
    tradingLimit: figures?.tradingLimit ?? null,
    // Exactly what the engine's CLEARING_FINANCIAL_LIMIT check adds an order's value to.
    exposure: openOrdersValue + tradedValue,
    openOrdersValue,
    tradedValue,
    clearingLimit: funds,
    marginBlockedByOrders: reserved,
    marginBlockedByTrades: tradesMargin,
    availableFunds: funds === null ? null : funds - reserved - tradesMargin,
    openContracts: figures?.openContracts ?? 0,
    maxContracts,
  };
}

/** GET /account/positions and GET /account/limits: the trading account views. */
export function accountRoutes({ auth, store, sequencer, projector, assets }: AccountRoutesOptions) {
  const engine = sequencer.engine;
  const scales = new Map<string, AssetScale>(
    assets.map((asset) => [asset.id, { marketId: asset.marketId, priceDecimals: asset.spec.priceDecimals, quantityDecimals: asset.spec.quantityDecimals }]),
  );
  const marketIds = new Set(assets.map((asset) => asset.marketId));
  const sessionDateOf = (assetId: string) => engine.getStats(assetId)?.sessionDate;

  function requireRead(user: UserRecord): void {
    if (!user.scopes.includes('trading:read') && !user.roles.includes('administrator')) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'trading:read' }));
  }

  /** The visible clients, narrowed to `clientCode` when given (a client one may not see is refused). */
  async function clientsFor(user: UserRecord, clientCode: string | undefined): Promise<Client[]> {
    const visible = visibleClients(user, await store.reference.clients());
    if (clientCode === undefined) return visible;
    const client = visible.find((candidate) => candidate.code === clientCode);
    // An unknown code and another agency's client get the same answer: existence is not the caller's business.
    if (!client) throw new ExchangeError(apiError('ACCOUNT_CLIENT_FORBIDDEN', { clientCode }));
    return [client];
  }

  return async function register(app: FastifyInstance): Promise<void> {
    const book = new PositionBook(scales, sessionDateOf, () => {
      const sessions: Array<[string, string]> = [];
      for (const assetId of scales.keys()) {
        const date = sessionDateOf(assetId);
        if (date) sessions.push([assetId, date]);
      }
      return seedFromStore(store, projector, sessions);
    });
    // Listening before the seed reads the store: trades in between wait in the book's queue.
    const stop = sequencer.onEvents((events) => book.onEvents(events));
    book.ready.catch((error: unknown) => console.error('account positions: seeding from the store failed:', error));
    app.addHook('onClose', async () => stop());

    app.get('/account/positions', async (request) => {
      const user = await requireUser(auth, request);
      requireRead(user);
      const query = parseWith(positionsQuerySchema, request.query);
      if (query.marketId !== undefined && (!marketIds.has(query.marketId) || !user.marketIds.includes(query.marketId))) {
        throw new ExchangeError(apiError('ACCOUNT_MARKET_INVALID', { marketId: query.marketId }));
      }
      const clients = await clientsFor(user, query.clientCode);
      await book.ready;
      const visibleMarkets = new Set(user.roles.includes('administrator') ? marketIds : user.marketIds);
      const items = book.positions(new Set(clients.map((client) => client.code)), (assetId) => {
        const marketId = scales.get(assetId)?.marketId;
        return marketId !== undefined && visibleMarkets.has(marketId) && (query.marketId === undefined || marketId === query.marketId);
      });
      return { amountDecimals: ACCOUNT_AMOUNT_DECIMALS, items, at: new Date(engine.clock).toISOString() };
    });

    app.get('/account/limits', async (request) => {
      const user = await requireUser(auth, request);
      requireRead(user);
      const query = parseWith(limitsQuerySchema, request.query);
      const clients = await clientsFor(user, query.clientCode);
      const [setups, markets] = await Promise.all([store.reference.tradingSetups(), store.reference.markets()]);
      const maxContractsOf = new Map(setups.map((setup) => [setup.clientCode, setup.maxContracts]));
      // Funds and limits are kept in one clearing currency (the demo exchange's markets all trade in RON).
      const currency = markets[0]?.currency ?? 'RON';
      const items = clients.map((client) => engineLimits(engine, client, currency, maxContractsOf.get(client.code) ?? null));
      return { amountDecimals: ACCOUNT_AMOUNT_DECIMALS, items, at: new Date(engine.clock).toISOString() };
    });
  };
}
