import type { AssetSpecification, LocalNames, Market, Ring } from '../../protocol/index.ts';
import type { Queryable } from './database.ts';

export interface Agency { id: string; name: string }
export interface Broker { id: string; agencyId: string; name: string }
export interface Terminal { id: string; brokerId: string; name: string }
export interface Client { id: string; code: string; name: string; acerCode: string; agencyId: string; active: boolean }

/** What an asset row's `spec` column holds: the wire specification minus the keys kept in columns, plus engine configuration. */
export type AssetSpecColumn = Omit<AssetSpecification, 'id' | 'marketId' | 'ringId' | 'code' | 'name' | 'names' | 'marginBps' | 'bilateral'> & { config: Record<string, unknown> };
export interface AssetRecord { id: string; marketId: string; ringId: string | null; code: string; name: string; names: LocalNames; spec: AssetSpecColumn }

export function toAssetSpecification(asset: AssetRecord): AssetSpecification {
  const { config, ...spec } = asset.spec;
  // The margin rate is engine configuration the order dialog needs to show the margin before sending.
  const marginBps = typeof config.marginBps === 'number' ? config.marginBps : 0;
  // Whether the book matches only whitelist partners: the book marks what the user may not trade with.
  const bilateral = config.bilateral === true ? { bilateral: true as const } : {};
  return { id: asset.id, marketId: asset.marketId, ringId: asset.ringId, code: asset.code, name: asset.name, names: asset.names, ...spec, marginBps, ...bilateral };
}

export interface ClientTradingSetup {
  clientCode: string;
  funds: number;
  tradingLimit: number;
  maxContracts: number;
  restrictedAsk: boolean;
  gasReleaseAssets: string[];
  rights: Record<string, { bid: boolean; ask: boolean }>;
}

export class ReferenceRepository {
  constructor(private readonly db: Queryable) {}

  async markets(): Promise<Market[]> {
    const rows = await this.db.query<{ id: string; name: string; names: LocalNames; commodity: Market['commodity']; kind: Market['kind']; workspace_type: Market['workspaceType']; currency: string }>(
      'select * from markets order by commodity desc, id',
    );
    return rows.map((row) => ({ id: row.id, name: row.name, names: row.names, commodity: row.commodity, kind: row.kind, workspaceType: row.workspace_type, currency: row.currency }));
  }

  async rings(): Promise<Ring[]> {
    const rows = await this.db.query<{ id: string; market_id: string; name: string; names: LocalNames }>('select * from rings order by market_id, id');
    return rows.map((row) => ({ id: row.id, marketId: row.market_id, name: row.name, names: row.names }));
  }

  async assets(): Promise<AssetRecord[]> {
    const rows = await this.db.query<{ id: string; market_id: string; ring_id: string | null; code: string; name: string; names: LocalNames; spec: AssetSpecColumn }>(
      'select * from assets order by market_id, id',
    );
    return rows.map((row) => ({ id: row.id, marketId: row.market_id, ringId: row.ring_id, code: row.code, name: row.name, names: row.names, spec: row.spec }));
  }

  async clients(): Promise<Client[]> {
    const rows = await this.db.query<{ id: string; code: string; name: string; acer_code: string; agency_id: string; active: boolean }>('select * from clients order by code');
    return rows.map((row) => ({ id: row.id, code: row.code, name: row.name, acerCode: row.acer_code, agencyId: row.agency_id, active: row.active }));
  }

  async tradingSetups(): Promise<ClientTradingSetup[]> {
    const rows = await this.db.query<{
      client_code: string; funds: string | number; trading_limit: string | number; max_contracts: number;
      restricted_ask: boolean; gas_release_assets: string[]; rights: ClientTradingSetup['rights'];
    }>('select * from client_trading_setup order by client_code');
    return rows.map((row) => ({
      clientCode: row.client_code,
      funds: Number(row.funds),
      tradingLimit: Number(row.trading_limit),
      maxContracts: Number(row.max_contracts),
      restrictedAsk: row.restricted_ask,
      gasReleaseAssets: row.gas_release_assets,
      rights: row.rights,
    }));
  }

  async insertTradingSetup(setup: ClientTradingSetup): Promise<void> {
    await this.db.query(
      'insert into client_trading_setup (client_code, funds, trading_limit, max_contracts, restricted_ask, gas_release_assets, rights) values ($1,$2,$3,$4,$5,$6,$7)',
      [setup.clientCode, setup.funds, setup.tradingLimit, setup.maxContracts, setup.restrictedAsk, JSON.stringify(setup.gasReleaseAssets), JSON.stringify(setup.rights)],
    );
  }

  async agency(id: string): Promise<Agency | null> {
    const rows = await this.db.query<Agency>('select id, name from agencies where id = $1', [id]);
    return rows[0] ?? null;
  }

  async broker(id: string): Promise<Broker | null> {
    const rows = await this.db.query<{ id: string; agency_id: string; name: string }>('select * from brokers where id = $1', [id]);
    return rows[0] ? { id: rows[0].id, agencyId: rows[0].agency_id, name: rows[0].name } : null;
  }

  async terminal(id: string): Promise<Terminal | null> {
    const rows = await this.db.query<{ id: string; broker_id: string; name: string }>('select * from terminals where id = $1', [id]);
    return rows[0] ? { id: rows[0].id, brokerId: rows[0].broker_id, name: rows[0].name } : null;
  }

  async insertMarket(market: Market): Promise<void> {
    await this.db.query('insert into markets (id, name, names, commodity, kind, workspace_type, currency) values ($1,$2,$3,$4,$5,$6,$7)', [
      market.id, market.name, JSON.stringify(market.names), market.commodity, market.kind, market.workspaceType, market.currency,
    ]);
  }

  async insertRing(ring: Ring): Promise<void> {
    await this.db.query('insert into rings (id, market_id, name, names) values ($1,$2,$3,$4)', [ring.id, ring.marketId, ring.name, JSON.stringify(ring.names)]);
  }

  async insertAsset(asset: AssetRecord): Promise<void> {
    await this.db.query('insert into assets (id, market_id, ring_id, code, name, names, spec) values ($1,$2,$3,$4,$5,$6,$7)', [
      asset.id, asset.marketId, asset.ringId, asset.code, asset.name, JSON.stringify(asset.names), JSON.stringify(asset.spec),
    ]);
  }

  /** Sets a key of an asset's `spec.config` where it is missing (demo rows made before the key existed). */
  async fillAssetConfig(id: string, key: string, value: unknown): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `update assets set spec = jsonb_set(spec, array['config', $2::text], $3::jsonb) where id = $1 and spec->'config'->$2::text is null returning id`,
      [id, key, JSON.stringify(value)],
    );
    return rows.length;
  }

  /** Sets the names of a market, ring or asset where they are still the one name of record in both languages (rows made before names existed). */
  async fillNames(table: 'markets' | 'rings' | 'assets', id: string, name: string, names: LocalNames): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `update ${table} set names = $3 where id = $1 and name = $2 and names = jsonb_build_object('ro', name, 'en', name) and names <> $3::jsonb returning id`,
      [id, name, JSON.stringify(names)],
    );
    return rows.length;
  }

  async insertAgency(agency: Agency): Promise<void> {
    await this.db.query('insert into agencies (id, name) values ($1,$2)', [agency.id, agency.name]);
  }

  async insertBroker(broker: Broker): Promise<void> {
    await this.db.query('insert into brokers (id, agency_id, name) values ($1,$2,$3)', [broker.id, broker.agencyId, broker.name]);
  }

  async insertTerminal(terminal: Terminal): Promise<void> {
    await this.db.query('insert into terminals (id, broker_id, name) values ($1,$2,$3)', [terminal.id, terminal.brokerId, terminal.name]);
  }

  async insertClient(client: Client): Promise<void> {
    await this.db.query('insert into clients (id, code, name, acer_code, agency_id, active) values ($1,$2,$3,$4,$5,$6)', [
      client.id, client.code, client.name, client.acerCode, client.agencyId, client.active,
    ]);
  }
}
