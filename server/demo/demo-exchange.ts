import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { assetSpecificationSchema, defaultPreferences, localNamesSchema, marketSchema, roles, ringSchema } from '../../protocol/index.ts';
import { hashPassword } from '../auth/password-hash.ts';
import { ReferenceRepository } from '../store/reference.repository.ts';
import type { Store } from '../store/store.ts';
import { UsersRepository } from '../store/users.repository.ts';
import { bucharestDate } from '../trading/time.ts';
import { rollDatedAsset } from './demo-calendar.ts';

export const demoFixturesDir = fileURLToPath(new URL('../../fixtures/demo/', import.meta.url));

const assetFixtureSchema = z.strictObject({
  id: z.string(),
  marketId: z.string(),
  ringId: z.string().nullable(),
  code: z.string(),
  name: z.string(),
  names: localNamesSchema,
  spec: assetSpecificationSchema.omit({ id: true, marketId: true, ringId: true, code: true, name: true, names: true, marginBps: true }).extend({ config: z.record(z.string(), z.unknown()) }),
});

export const demoExchangeSchema = z.strictObject({
  markets: z.array(marketSchema),
  rings: z.array(ringSchema),
  assets: z.array(assetFixtureSchema),
  agencies: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  brokers: z.array(z.strictObject({ id: z.string(), agencyId: z.string(), name: z.string() })),
  terminals: z.array(z.strictObject({ id: z.string(), brokerId: z.string(), name: z.string() })),
  clients: z.array(z.strictObject({ id: z.string(), code: z.string(), name: z.string(), acerCode: z.string(), agencyId: z.string(), active: z.boolean() })),
  /** Funds and limits in currency minor units (2 decimals). */
  clientClearing: z.record(
    z.string(),
    z.strictObject({
      funds: z.number().int().nonnegative(),
      tradingLimit: z.number().int().nonnegative(),
      maxContracts: z.number().int().nonnegative(),
      restrictedAsk: z.boolean().optional(),
      gasReleaseAssets: z.array(z.string()).optional(),
    }),
  ),
});

export const demoUserSchema = z.strictObject({
  username: z.string(),
  name: z.string(),
  password: z.string(),
  roles: z.array(z.enum(roles)),
  scopes: z.array(z.string()),
  brokerId: z.string().nullable(),
  agencyId: z.string().nullable(),
  terminalId: z.string().nullable(),
  clientCodes: z.array(z.string()),
  marketIds: z.array(z.string()),
  totpSecret: z.string().regex(/^[A-Z2-7]+=*$/),
  /** Makes a demo user whose password has expired, to show the reset flow. */
  passwordChangedDaysAgo: z.number().int().nonnegative().optional(),
});
export type DemoUser = z.infer<typeof demoUserSchema>;
export const demoUsersSchema = z.strictObject({ note: z.string(), users: z.array(demoUserSchema) });

export function readDemoUsers(dir = demoFixturesDir): DemoUser[] {
  return demoUsersSchema.parse(JSON.parse(readFileSync(`${dir}users.json`, 'utf8'))).users;
}

type DemoExchange = z.infer<typeof demoExchangeSchema>;

/** The fixture as written: its dated products are templates, listed as they are on the fixture's own dates. */
export function readDemoExchange(dir = demoFixturesDir): DemoExchange {
  return demoExchangeSchema.parse(JSON.parse(readFileSync(`${dir}exchange.json`, 'utf8')));
}

/**
 * The demo exchange as it is made on a date: its dated products rolled to the periods listed that day
 * (server/demo/demo-calendar.ts), and every reference to them (gas release rights) with them.
 */
export function demoExchangeOn(now: number, dir = demoFixturesDir): DemoExchange {
  const exchange = readDemoExchange(dir);
  const today = bucharestDate(now);
  const assets = exchange.assets.map((asset) => rollDatedAsset(asset, today));
  const idOf = new Map(exchange.assets.map((asset, index) => [asset.id, assets[index]!.id]));
  const clientClearing = Object.fromEntries(
    Object.entries(exchange.clientClearing).map(([code, setup]) => [
      code,
      setup.gasReleaseAssets === undefined ? setup : { ...setup, gasReleaseAssets: setup.gasReleaseAssets.map((id) => idOf.get(id) ?? id) },
    ]),
  );
  return { ...exchange, assets, clientClearing };
}

/** The id a demo product has when the demo is made at `now`: `demoAssetId('GFWD-M-2027-01', now)` is the gas forward month listed then. */
export function demoAssetId(templateId: string, now: number, dir = demoFixturesDir): string {
  const template = readDemoExchange(dir).assets.find((asset) => asset.id === templateId);
  if (!template) throw new Error(`no demo asset ${templateId}`);
  return rollDatedAsset(template, bucharestDate(now)).id;
}

/**
 * Loads the demo exchange on first start (an empty database), its dated products those listed at `now`
 * (demoExchangeOn); later starts keep what is there, except
 * that a database made by an older version gets what the demo rows gained since: names in both
 * languages for markets, rings and assets still named in one, and the rolling periods of spot assets.
 */
export async function loadDemoExchangeIfEmpty(store: Store, now: Date, dir = demoFixturesDir): Promise<boolean> {
  if ((await store.users.count()) > 0) {
    await fillDemoNames(store, dir);
    await fillDemoRolling(store, dir);
    return false;
  }
  const exchange = demoExchangeOn(now.getTime(), dir);
  const users = readDemoUsers(dir);
  const hashes = await Promise.all(users.map((user) => hashPassword(user.password)));
  await store.db.transaction(async (tx) => {
    const reference = new ReferenceRepository(tx);
    const usersRepo = new UsersRepository(tx);
    for (const market of exchange.markets) await reference.insertMarket(market);
    for (const ring of exchange.rings) await reference.insertRing(ring);
    for (const asset of exchange.assets) await reference.insertAsset(asset);
    for (const agency of exchange.agencies) await reference.insertAgency(agency);
    for (const broker of exchange.brokers) await reference.insertBroker(broker);
    for (const terminal of exchange.terminals) await reference.insertTerminal(terminal);
    for (const client of exchange.clients) await reference.insertClient(client);
    for (const [clientCode, setup] of Object.entries(exchange.clientClearing)) {
      await reference.insertTradingSetup({
        clientCode,
        funds: setup.funds,
        tradingLimit: setup.tradingLimit,
        maxContracts: setup.maxContracts,
        restrictedAsk: setup.restrictedAsk ?? false,
        gasReleaseAssets: setup.gasReleaseAssets ?? [],
        rights: { '*': { bid: true, ask: true } },
      });
    }
    for (const [index, user] of users.entries()) {
      await usersRepo.insert({
        id: `U-${String(index + 1).padStart(3, '0')}`,
        username: user.username,
        name: user.name,
        roles: user.roles,
        scopes: user.scopes,
        brokerId: user.brokerId,
        agencyId: user.agencyId,
        terminalId: user.terminalId,
        clientCodes: user.clientCodes,
        marketIds: user.marketIds,
        passwordHash: hashes[index]!,
        passwordChangedAt: new Date(now.getTime() - (user.passwordChangedDaysAgo ?? 0) * 86_400_000),
        totpSecret: user.totpSecret,
        lastTotpStep: 0,
        preferences: defaultPreferences,
      });
    }
  });
  return true;
}

/** Gives the demo's own reference rows their names in both languages where they have the one name of record only (databases that old were made with the fixture's own ids). */
export async function fillDemoNames(store: Store, dir = demoFixturesDir): Promise<number> {
  const exchange = readDemoExchange(dir);
  const reference = store.reference;
  let filled = 0;
  for (const market of exchange.markets) filled += await reference.fillNames('markets', market.id, market.name, market.names);
  for (const ring of exchange.rings) filled += await reference.fillNames('rings', ring.id, ring.name, ring.names);
  for (const asset of exchange.assets) filled += await reference.fillNames('assets', asset.id, asset.name, asset.names);
  return filled;
}

/** Gives the demo's rolling assets their `config.rolling` where a database made before it lacks it (server/trading/asset-periods.ts). */
export async function fillDemoRolling(store: Store, dir = demoFixturesDir): Promise<number> {
  let filled = 0;
  for (const asset of readDemoExchange(dir).assets) {
    if (asset.spec.config.rolling !== undefined) filled += await store.reference.fillAssetConfig(asset.id, 'rolling', asset.spec.config.rolling);
  }
  return filled;
}
