import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetSpecificationSchema, marketSchema, ringSchema, type AssetSpecification, type Market, type Ring } from '../../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.server.close();
});

describe('reference API', () => {
  it('serves markets, rings and assets with their names in Romanian and English, valid against the protocol schemas', async () => {
    const token = await t.login('broker1');
    const { markets, rings } = (await t.get('/markets', token)).body as { markets: Market[]; rings: Ring[] };
    for (const market of markets) marketSchema.parse(market);
    for (const ring of rings) ringSchema.parse(ring);
    expect(markets.find((market) => market.id === 'EL-FWD')?.names).toEqual({ ro: 'Energie electrică la termen', en: 'Electricity forward' });
    expect(rings.find((ring) => ring.id === 'R-GAS-STD')?.names).toEqual({ ro: 'Produse standard de gaze naturale', en: 'Standard gas products' });

    const { assets } = (await t.get('/assets', token)).body as { assets: AssetSpecification[] };
    for (const asset of assets) assetSpecificationSchema.parse(asset);
    expect(assets.find((asset) => asset.id === 'ESPOT-DA-H01')?.names).toEqual({ ro: 'Energie electrică ziua următoare, ora 01 (00:00-01:00)', en: 'Power day-ahead hour 01 (00:00-01:00)' });
    const one = (await t.get('/assets/GFWD-Q1-2027', token)).body as AssetSpecification;
    expect(one).toMatchObject({ name: 'Gas Q1 2027', names: { ro: 'Gaze naturale trimestrul 1 2027', en: 'Gas Q1 2027' }, type: 'quarter' });
    // Engine configuration stays on the server.
    expect(Object.keys(one)).not.toContain('config');
    // ...except whether the asset is bilateral (whitelist-restricted), which the book shows; sent only when true.
    expect(assets.find((asset) => asset.id === 'GBIL-M-2027-01')?.bilateral).toBe(true);
    expect(Object.keys(one)).not.toContain('bilateral');
  });
});
