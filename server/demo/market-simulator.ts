import type { AssetSpecification, Order } from '../../protocol/index.ts';
import { currentCode } from '../auth/totp.ts';
import { readDemoUsers } from './demo-exchange.ts';

/**
 * Keeps the demo books moving. Two simulator brokers (demo users sim-nord and sim-carp) sign in with
 * their verification codes and trade through the public REST API, so every order meets the same
 * rules as a person's. They belong to their own agency (AG-SIM) and act only for its clients
 * (SIM-NORD-*, SIM-CARP-*), which no other user serves: the demo users never see the simulator's
 * orders as theirs, get no alerts for them, and never have their own orders cancelled by it.
 * Each asset has a mid price on a slow random walk; most orders rest a few steps from it, some cross
 * the spread, and the simulator's oldest orders are cancelled so books stay a sensible depth.
 */
export interface MarketSimulatorOptions {
  /** Base of the API, e.g. http://127.0.0.1:8080/session/api */
  api: string;
  /** Ms between simulator actions. */
  intervalMs?: number;
  /** Resting orders per asset and side the simulator keeps at most. */
  depth?: number;
  random?: () => number;
  now?: () => number;
  log?: (message: string) => void;
}

interface Trader {
  username: string;
  clientCodes: string[];
  token: string | null;
  tokenExpiresAt: number;
}

const SIMULATOR_USERS = ['sim-nord', 'sim-carp'];
/** Simple competitive procedures (PMC, gas release) and balancing groups have their own participants. */
const SKIPPED_MARKETS = new Set(['EL-PMC', 'GAS-BG']);
const SKIPPED_RINGS = new Set(['R-GAS-RELEASE']);

export class MarketSimulator {
  private readonly traders: Trader[];
  private assets: AssetSpecification[] = [];
  private readonly mid = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private sequence = 0;
  private readonly random: () => number;
  private readonly now: () => number;
  actions = 0;
  /** Refusals by code: the simulator stays within the rules, so this is expected to stay empty. */
  readonly refusals = new Map<string, number>();

  constructor(private readonly options: MarketSimulatorOptions) {
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    const users = readDemoUsers();
    this.traders = SIMULATOR_USERS.map((username) => {
      const user = users.find((candidate) => candidate.username === username);
      if (!user) throw new Error(`demo user ${username} is missing from fixtures/demo/users.json`);
      return { username, clientCodes: user.clientCodes, token: null, tokenExpiresAt: 0 };
    });
  }

  async start(): Promise<void> {
    // A database made before the simulator had its own clients still gives its users the demo brokers' clients.
    for (const trader of this.traders) {
      const info = (await this.call(trader, 'GET', '/user/info')) as { clientCodes: string[] };
      const missing = trader.clientCodes.filter((code) => !info.clientCodes.includes(code));
      const foreign = info.clientCodes.filter((code) => !trader.clientCodes.includes(code));
      if (missing.length > 0 || foreign.length > 0) {
        throw new Error(`${trader.username} acts for ${info.clientCodes.join(', ') || 'nobody'} in this database, not only for the simulator's own clients (${trader.clientCodes.join(', ')}); start from an empty DATA_DIR`);
      }
    }
    const trader = this.traders[0]!;
    const { assets } = (await this.call(trader, 'GET', '/assets')) as { assets: AssetSpecification[] };
    this.assets = assets.filter((asset) => !SKIPPED_MARKETS.has(asset.marketId) && !SKIPPED_RINGS.has(asset.ringId ?? ''));
    for (const asset of this.assets) this.mid.set(asset.id, this.roundToStep(asset, 15_000 + Math.round((this.random() - 0.5) * 4_000)));
    this.timer = setInterval(() => void this.step(), this.options.intervalMs ?? 250);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One action: place near the mid, sometimes cross, and cancel the oldest order past the depth. */
  async step(): Promise<void> {
    if (this.busy || this.assets.length === 0) return;
    this.busy = true;
    try {
      const asset = this.assets[Math.floor(this.random() * this.assets.length)]!;
      const mid = this.walk(asset);
      const way = this.random() < 0.5 ? 'bid' : 'ask';
      // One trader buys and the other sells, so a crossing order never meets its own client (ORDER_CROSS).
      const trader = this.traders[way === 'bid' ? 0 : 1]!;
      const crossing = this.random() < 0.15;
      const distance = crossing ? -Math.ceil(this.random() * 2) : 1 + Math.floor(this.random() * 8);
      const price = this.roundToStep(asset, way === 'bid' ? mid - distance * 5 * asset.priceStep : mid + distance * 5 * asset.priceStep);
      const lots = 1 + Math.floor(this.random() * 10);
      const qty = Math.max(asset.minQuantity, lots * asset.quantityStep);
      const clientCode = trader.clientCodes[Math.floor(this.random() * trader.clientCodes.length)]!;
      await this.call(trader, 'POST', '/orders', {
        idempotencyKey: `sim-${process.pid}-${this.now()}-${this.sequence++}`,
        assetId: asset.id,
        way,
        price,
        qty,
        validityType: 'day',
        clientCode,
      }).catch((error: Error) => this.refused(error));
      this.actions++;

      const { items } = (await this.call(trader, 'GET', `/orders/mine?assetId=${asset.id}`)) as { items: Order[] };
      // Only orders of the trader's own clients, whatever the server lists.
      const own = new Set(trader.clientCodes);
      const mine = items.filter((order) => own.has(order.clientCode) && order.way === way && !order.suspended).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const depth = this.options.depth ?? 6;
      for (const order of mine.slice(0, Math.max(0, mine.length - depth))) {
        await this.call(trader, 'POST', `/orders/${order.orderId}/cancel`, {}).catch((error: Error) => this.refused(error));
      }
    } catch (error) {
      this.options.log?.(`simulator: ${(error as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  private refused(error: Error): void {
    // During a delta-T period cancels and small improvements are refused by design; it tries again later.
    if (error.message === 'ORDER_DELTA_T_LOCKED' || error.message === 'ORDER_DELTA_T_PRICE_STEP') return;
    this.refusals.set(error.message, (this.refusals.get(error.message) ?? 0) + 1);
  }

  private walk(asset: AssetSpecification): number {
    const current = this.mid.get(asset.id) ?? 15_000;
    const next = this.roundToStep(asset, Math.min(asset.maxPrice / 2, Math.max(1_000, current + Math.round((this.random() - 0.5) * 6) * asset.priceStep)));
    this.mid.set(asset.id, next);
    return next;
  }

  private roundToStep(asset: AssetSpecification, price: number): number {
    return Math.max(asset.priceStep, Math.round(price / asset.priceStep) * asset.priceStep);
  }

  private async signIn(trader: Trader): Promise<string> {
    if (trader.token && trader.tokenExpiresAt - this.now() > 60_000) return trader.token;
    const user = readDemoUsers().find((candidate) => candidate.username === trader.username)!;
    const response = await fetch(`${this.options.api}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: user.password, code: currentCode(user.totpSecret, this.now()) }),
    });
    const body = (await response.json()) as { token?: string; expiresAt?: string; error?: { code: string } };
    if (!response.ok || !body.token) throw new Error(`sign-in of ${trader.username} refused: ${body.error?.code ?? response.status}`);
    trader.token = body.token;
    trader.tokenExpiresAt = Date.parse(body.expiresAt ?? '') || this.now() + 1_700_000;
    return body.token;
  }

  private async call(trader: Trader, method: string, path: string, body?: unknown): Promise<unknown> {
    const token = await this.signIn(trader);
    const response = await fetch(`${this.options.api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const result = (await response.json()) as { error?: { code: string } };
    if (!response.ok) throw new Error(result.error?.code ?? String(response.status));
    return result;
  }
}
