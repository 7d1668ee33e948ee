/**
 * One test per rule: each case builds the smallest state that triggers the rule and checks the code,
 * its parameters, that a refusal carries no events and leaves the engine consistent and unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, type ErrorCode } from '../../../protocol/error-codes.ts';
import type { EngineResult } from '../../../server/engine/types.ts';
import { ASSET, MARKET, T0, harness, type Harness } from './helpers.ts';

interface RuleCase {
  code: ErrorCode;
  /** What the rule says, for the test name. */
  rule: string;
  /** Builds the state; `act` then sends the command the rule refuses. */
  run: () => { h: Harness; act: () => EngineResult };
  params?: Record<string, string | number> | ((h: Harness) => Record<string, string | number>);
}

const add = (h: Harness, fields: Parameters<Harness['add']>[0]) => ({ h, act: () => h.add(fields) });
const bid = (clientCode = 'C1', price = 10_000, qty = 10) => ({ assetId: ASSET, clientCode, way: 'bid' as const, price, qty });
const ask = (clientCode = 'C2', price = 10_000, qty = 10) => ({ assetId: ASSET, clientCode, way: 'ask' as const, price, qty });
const iso = (ms: number) => new Date(ms).toISOString();

const cases: RuleCase[] = [
  // ---- missing and invalid fields
  { code: 'ORDER_ASSET_ID_MISSING', rule: 'an order names its asset', run: () => add(harness(), { clientCode: 'C1', way: 'bid', price: 10_000, qty: 1 }) },
  { code: 'ORDER_ASSET_ID_INVALID', rule: 'the asset exists', run: () => add(harness(), { ...bid(), assetId: 'NOPE' }), params: { assetId: 'NOPE' } },
  { code: 'ORDER_DIRECTION_MISSING', rule: 'an order has a direction', run: () => add(harness(), { assetId: ASSET, clientCode: 'C1', price: 10_000, qty: 1 }) },
  { code: 'ORDER_DIRECTION_INVALID', rule: 'the direction is bid or ask', run: () => add(harness(), { ...bid(), way: 'buy' as never }), params: { way: 'buy' } },
  { code: 'ORDER_CLIENT_CODE_MISSING', rule: 'an order names its client', run: () => add(harness(), { assetId: ASSET, way: 'bid', price: 10_000, qty: 1 }) },
  { code: 'ORDER_CLIENT_CODE_INVALID', rule: 'the client exists', run: () => add(harness(), bid('ZZ')), params: { clientCode: 'ZZ' } },
  {
    code: 'PARTICIPANT_SUSPENDED',
    rule: 'a client the operator suspended places no order',
    run: () => {
      const h = harness();
      h.ok({ type: 'suspendParticipant', at: h.now, kind: 'client', id: 'C3', reason: 'margin call unpaid', by: 'u-admin' });
      return add(h, bid('C3'));
    },
    params: { participant: 'C3' },
  },
  {
    code: 'PARTICIPANT_SUSPENDED',
    rule: 'a broker (user) the operator suspended places no order, for any client',
    run: () => {
      const h = harness();
      h.ok({ type: 'suspendParticipant', at: h.now, kind: 'broker', id: 'u-broker1', reason: 'margin call unpaid', by: 'u-admin' });
      return add(h, { ...bid('C1'), actor: { userId: 'u-broker1' } });
    },
    params: { participant: 'u-broker1' },
  },
  { code: 'ORDER_CLIENT_NOT_ACTIVE', rule: 'the client is active', run: () => add(harness({ clients: { C3: { active: false } } }), bid('C3')), params: { clientCode: 'C3' } },
  { code: 'ORDER_VALIDITY_TYPE_MISSING', rule: 'an order has a validity type', run: () => add(harness(), { ...bid(), validityType: undefined }) },
  { code: 'ORDER_VALIDITY_TYPE_INVALID', rule: 'the validity type is day, GTC, GTD or GTSV', run: () => add(harness(), { ...bid(), validityType: 'GTX' as never }), params: { validityType: 'GTX' } },
  { code: 'ORDER_VALIDITY_TIMESTAMP_MISSING', rule: 'GTD and GTSV carry their timestamp', run: () => add(harness(), { ...bid(), validityType: 'GTD' }) },
  {
    code: 'ORDER_VALIDITY_IN_PAST',
    rule: 'the validity timestamp is in the future',
    run: () => add(harness(), { ...bid(), validityType: 'GTSV', validity: T0 - 60_000 }),
    params: { validity: iso(T0 - 60_000) },
  },
  { code: 'ORDER_QUANTITY_MISSING', rule: 'an order has a quantity', run: () => add(harness(), { assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000 }) },
  {
    code: 'ORDER_CONTRACT_COUNT_MISSING',
    rule: 'on contract assets an order has its contract count',
    run: () => add(harness({ asset: { quantityInput: 'noCnt', contractQty: 24 } }), { assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 24 }),
  },
  {
    code: 'ORDER_CONTRACTS_MISMATCH',
    rule: 'qty and noCnt sent together name one quantity',
    run: () => add(harness({ asset: { contractQty: 24 } }), { ...bid('C1', 10_000, 48), noCnt: 3 }),
    params: { noCnt: '3', expected: '2' },
  },
  { code: 'ORDER_PRICE_MISSING', rule: 'a limit order has a price', run: () => add(harness(), { assetId: ASSET, clientCode: 'C1', way: 'bid', qty: 1 }) },
  {
    code: 'ORDER_QUANTITY_INVALID',
    rule: 'the quantity is a positive integer (the refusal states the step and bounds)',
    run: () => add(harness({ asset: { unit: 'MWh', quantityStep: 5, minQuantity: 5 } }), bid('C1', 10_000, 0)),
    params: { step: '5', min: '5', max: '10000', unit: 'MWh' },
  },

  // ---- quantity and price
  { code: 'ORDER_QUANTITY_STEP', rule: 'the quantity is a multiple of the quantity step', run: () => add(harness({ asset: { quantityStep: 10, unit: 'MWh' } }), bid('C1', 10_000, 15)), params: { step: '10', unit: 'MWh' } },
  { code: 'ORDER_QUANTITY_BELOW_MINIMUM', rule: 'the quantity is not below the minimum', run: () => add(harness({ asset: { minQuantity: 5, unit: 'MWh' } }), bid('C1', 10_000, 3)), params: { min: '5', unit: 'MWh' } },
  { code: 'ORDER_QUANTITY_TOO_LARGE', rule: 'the quantity is not above the maximum', run: () => add(harness(), bid('C1', 10_000, 10_001)), params: { max: '10000', unit: '' } },
  { code: 'ORDER_PRICE_NEGATIVE', rule: 'the price is not negative', run: () => add(harness(), bid('C1', -500)) },
  { code: 'ORDER_PRICE_ZERO', rule: 'the price is not zero', run: () => add(harness(), bid('C1', 0)) },
  {
    code: 'ORDER_PRICE_TOO_MANY_DIGITS',
    rule: 'the whole part of the price has at most 12 digits',
    run: () => add(harness({ asset: { maxPrice: 10 ** 15 } }), bid('C1', 10 ** 14)),
    params: { maxDigits: 12 },
  },
  { code: 'ORDER_PRICE_STEP', rule: 'the price is a multiple of the price step', run: () => add(harness(), bid('C1', 10_002)), params: { step: '0.05', currency: 'RON' } },
  { code: 'ORDER_PRICE_OUTSIDE_LIMITS', rule: 'the price is inside the asset limits', run: () => add(harness(), bid('C1', 50)), params: { min: '1.00', max: '10000.00', currency: 'RON' } },
  { code: 'ORDER_SESSION_MIN_PRICE', rule: 'the session minimum price applies', run: () => add(harness({ asset: { sessionMinPrice: 1_000 } }), bid('C1', 500)), params: { bound: '10.00', currency: 'RON' } },
  { code: 'ORDER_SESSION_MAX_PRICE', rule: 'the session maximum price applies', run: () => add(harness({ asset: { sessionMaxPrice: 2_000 } }), bid('C1', 2_500)), params: { bound: '20.00', currency: 'RON' } },
  { code: 'ORDER_REGULATOR_MAX_PRICE', rule: "the regulator's maximum price applies", run: () => add(harness({ asset: { regulatorMaxPrice: 3_000 } }), bid('C1', 3_500)), params: { bound: '30.00', currency: 'RON' } },

  // ---- per-asset configuration on modify and cancel
  {
    code: 'ORDER_PRICE_CANNOT_WORSEN',
    rule: 'price must improve (asset flag)',
    run: () => {
      const h = harness({ asset: { flags: { priceMustImprove: true } } });
      const id = h.place('bid', 1_000, 10);
      return { h, act: () => h.modify(id, { price: 900 }) };
    },
    params: { previous: '10.00' },
  },
  {
    code: 'ORDER_QUANTITY_CANNOT_DECREASE',
    rule: 'no quantity decrease (asset flag)',
    run: () => {
      const h = harness({ asset: { flags: { noQuantityDecrease: true } } });
      const id = h.place('bid', 1_000, 10);
      return { h, act: () => h.modify(id, { qty: 5 }) };
    },
    params: { previous: '10' },
  },
  {
    code: 'ORDER_PRICE_NOT_CHANGEABLE',
    rule: 'no price change (asset flag)',
    run: () => {
      const h = harness({ asset: { flags: { noPriceChange: true } } });
      const id = h.place('bid', 1_000, 10);
      return { h, act: () => h.modify(id, { price: 1_100 }) };
    },
  },
  {
    code: 'ORDER_ATTRIBUTES_NOT_CHANGEABLE',
    rule: 'no time or price attribute change (asset flag)',
    run: () => {
      const h = harness({ asset: { flags: { noAttributeChange: true } } });
      const id = h.place('bid', 1_000, 10);
      return { h, act: () => h.modify(id, { validityType: 'day' }) };
    },
  },
  {
    code: 'ORDER_NOT_CANCELLABLE',
    rule: 'no cancel (asset flag)',
    run: () => {
      const h = harness({ asset: { flags: { noCancel: true } } });
      const id = h.place('bid', 1_000, 10);
      return { h, act: () => h.cancel(id) };
    },
  },

  // ---- cross orders and delta T
  {
    code: 'ORDER_CROSS',
    rule: "an order must not meet the same client's resting order on the other side",
    run: () => {
      const h = harness();
      const id = h.place('ask', 1_000, 10, 'C1');
      return { h, act: () => h.add(bid('C1', 1_000, 5)), id };
    },
    params: { orderId: 1 },
  },
  {
    code: 'ORDER_CROSS_BID',
    rule: 'on one-side-per-client assets a client cannot hold both sides',
    run: () => {
      const h = harness({ asset: { flags: { oneSidePerClient: true } } });
      h.place('ask', 2_000, 10, 'C1');
      return { h, act: () => h.add(bid('C1', 1_000, 5)) };
    },
    params: { orderId: 1 },
  },
  {
    code: 'ORDER_DELTA_T_LOCKED',
    rule: 'no modify or cancel during delta T',
    run: () => {
      const h = harness({ asset: { deltaT: { durationMs: 60_000, priceStep: 10 } } });
      const askId = h.place('ask', 1_000, 10);
      h.place('bid', 1_000, 10);
      return { h, act: () => h.cancel(askId) };
    },
    params: (h) => ({ endsAt: iso(h.engine.getDeltaT(ASSET)!.endsAt) }),
  },
  {
    code: 'ORDER_DELTA_T_PRICE_STEP',
    rule: 'a competing order during delta T improves by the delta-T price step',
    run: () => {
      const h = harness({ asset: { deltaT: { durationMs: 60_000, priceStep: 10 } } });
      h.place('ask', 1_000, 10);
      h.place('bid', 1_000, 10);
      return { h, act: () => h.add(bid('C3', 1_005, 10)) };
    },
    params: { step: '0.10', currency: 'RON' },
  },

  // ---- rights and participant restrictions
  { code: 'ORDER_AGENCY_CLIENT_FORBIDDEN', rule: 'an agency operates only on its own clients', run: () => add(harness({ clients: { C3: { agencyId: 'AG2' } } }), bid('C3')), params: { clientCode: 'C3' } },
  {
    code: 'ORDER_NO_RIGHT',
    rule: 'the client has the right for the asset and direction',
    run: () => add(harness({ clients: { C3: { rights: { [ASSET]: { bid: true, ask: false } } } } }), ask('C3')),
    params: { clientCode: 'C3', assetId: ASSET, way: 'ask' },
  },
  { code: 'ORDER_CLIENT_RESTRICTED_ASK', rule: 'clients restricted on asks place no asks', run: () => add(harness({ clients: { C3: { restrictedAsk: true } } }), ask('C3')), params: { clientCode: 'C3' } },
  { code: 'ORDER_SIDE_RESTRICTED', rule: 'asset owners place only their side', run: () => add(harness({ asset: { ownerSides: { C3: 'ask' } } }), bid('C3')), params: { way: 'bid' } },
  {
    code: 'ORDER_NOT_TRANSMISSION_PARTNER',
    rule: "the transmission side is for the operator's active partners",
    run: () => add(harness({ asset: { transmissionWay: 'bid' }, clients: { C3: { transmissionPartner: { active: false } } } }), bid('C3')),
    params: { clientCode: 'C3' },
  },
  {
    code: 'ORDER_TRANSMISSION_SIDE_RESTRICTED',
    rule: 'transmission partners trade only on the transmission side',
    run: () => add(harness({ asset: { transmissionWay: 'bid' }, clients: { C3: { transmissionPartner: { active: true } } } }), ask('C3')),
    params: { way: 'ask' },
  },
  { code: 'ORDER_GAS_RELEASE_FORBIDDEN', rule: 'gas release orders only for permitted clients', run: () => add(harness({ asset: { gasRelease: true } }), bid('C1')), params: { clientCode: 'C1', assetId: ASSET } },
  {
    code: 'ORDER_IMBALANCE_BID_ONLY',
    rule: 'imbalance restricts a client to bids',
    run: () => add(harness({ clients: { C3: { imbalance: { [ASSET]: { way: 'bid', quantity: 50 } } } } }), ask('C3')),
    params: { quantity: '50' },
  },
  {
    code: 'ORDER_IMBALANCE_ASK_ONLY',
    rule: 'imbalance restricts a client to asks',
    run: () => add(harness({ clients: { C3: { imbalance: { [ASSET]: { way: 'ask', quantity: 50 } } } } }), bid('C3')),
    params: { quantity: '50' },
  },
  {
    code: 'ORDER_IMBALANCE_QUANTITY_LIMIT',
    rule: 'imbalance orders stay within the quantity',
    run: () => {
      const h = harness({ clients: { C3: { imbalance: { '*': { way: 'bid', quantity: 50 } } } } });
      h.place('bid', 1_000, 30, 'C3');
      return { h, act: () => h.add(bid('C3', 1_000, 30)) };
    },
    params: { limit: '50' },
  },
  {
    code: 'ORDER_TRADEABLE_QUANTITY_INSUFFICIENT',
    rule: 'the tradeable quantity must be sufficient',
    run: () => {
      const h = harness({ clients: { C3: { tradeableQuantity: { [ASSET]: { ask: 100 } } } } });
      h.place('ask', 2_000, 80, 'C3');
      return { h, act: () => h.add(ask('C3', 2_000, 30)) };
    },
    params: { excess: '10', limit: '100' },
  },
  {
    code: 'ORDER_BALANCING_GROUP_NO_CANCEL',
    rule: 'balancing-group orders cannot be cancelled',
    run: () => {
      const h = harness({ asset: { balancingGroup: { maxDecreasePercent: 20 } } });
      const id = h.place('bid', 1_000, 100, 'C1', { balancingGroupId: 'BG1' });
      return { h, act: () => h.cancel(id) };
    },
  },
  {
    code: 'ORDER_BALANCING_GROUP_ONLY_IMPROVE',
    rule: 'balancing-group orders are only improved',
    run: () => {
      const h = harness({ asset: { balancingGroup: { maxDecreasePercent: 20 } } });
      const id = h.place('bid', 1_000, 100, 'C1', { balancingGroupId: 'BG1' });
      return { h, act: () => h.modify(id, { price: 995 }) };
    },
  },
  {
    code: 'ORDER_BALANCING_GROUP_DECREASE_CAP',
    rule: 'balancing-group quantity decreases are capped',
    run: () => {
      const h = harness({ asset: { balancingGroup: { maxDecreasePercent: 20 } } });
      const id = h.place('bid', 1_000, 100, 'C1', { balancingGroupId: 'BG1' });
      expect(h.modify(id, { qty: 90 }).result).toBe('OK');
      return { h, act: () => h.modify(id, { qty: 70 }) };
    },
    params: { maxDecrease: '10' },
  },
  { code: 'ORDER_TRADING_DEACTIVATED', rule: 'no orders on an asset with trading deactivated', run: () => add(harness({ asset: { tradingActive: false } }), bid()), params: { assetId: ASSET } },

  // ---- simple competitive assets
  {
    code: 'ORDER_SIMPLE_COMPETITIVE_GTC_ONLY',
    rule: 'simple competitive assets accept only GTC',
    run: () => add(harness({ asset: { simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' } } }), { ...bid('C2'), validityType: 'day' }),
  },
  {
    code: 'ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE',
    rule: 'partners trade on the side opposite the initiator',
    run: () => add(harness({ asset: { simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' } } }), ask('C2')),
    params: { way: 'ask' },
  },
  {
    code: 'ORDER_INITIATOR_EXISTS',
    rule: 'only one initiator order exists',
    run: () => {
      const h = harness({ asset: { simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' } } });
      h.place('ask', 2_000, 10, 'C1');
      return { h, act: () => h.add(ask('C1', 2_100, 10)) };
    },
    params: { orderId: 1 },
  },
  {
    code: 'ORDER_INITIATOR_NO_NEW_ORDER',
    rule: 'the initiator cannot place another order',
    run: () => {
      const h = harness({ asset: { simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' } } });
      h.place('ask', 2_000, 10, 'C1');
      h.place('bid', 2_000, 10, 'C2');
      return { h, act: () => h.add(ask('C1', 2_100, 10)) };
    },
  },
  {
    code: 'ORDER_INITIATOR_QUANTITY_LOCKED',
    rule: 'the initiator cannot change its quantity',
    run: () => {
      const h = harness({ asset: { simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' } } });
      const id = h.place('ask', 2_000, 10, 'C1');
      return { h, act: () => h.modify(id, { qty: 12 }) };
    },
  },

  // ---- execution types
  {
    code: 'ORDER_FOK_NOT_FILLED',
    rule: 'fill-or-kill fills entirely or not at all',
    run: () => {
      const h = harness();
      h.place('ask', 1_000, 10);
      return { h, act: () => h.add({ ...bid('C1', 1_000, 20), executionType: 'FOK' }) };
    },
  },
  { code: 'ORDER_IOC_NOT_FILLED', rule: 'immediate-or-cancel must fill at once', run: () => add(harness(), { ...bid('C1', 1_000, 20), executionType: 'IOC' }) },

  // ---- order references
  { code: 'ORDER_NOT_FOUND', rule: 'the order exists and is live', run: () => {
      const h = harness();
      return { h, act: () => h.cancel(999) };
    }, params: { orderId: 999 } },
  {
    code: 'ORDER_STATE_INVALID',
    rule: 'only a suspended order is activated',
    run: () => {
      const h = harness();
      const id = h.place('bid', 1_000, 10);
      return { h, act: () => h.activate(id) };
    },
    params: { orderId: 1, status: 'created' },
  },

  // ---- pre-trade clearing
  {
    code: 'ORDER_INSUFFICIENT_FUNDS',
    rule: "the order's margin is within the client's available funds",
    run: () => add(harness({ asset: { marginBps: 1_000 }, clients: { C3: { clearing: { funds: 5_000 } } } }), bid('C3', 10_000, 10)),
    params: { amountToDeposit: '50.00', currency: 'RON' },
  },
  {
    code: 'CLEARING_FINANCIAL_LIMIT',
    rule: 'exposure stays within the financial limit',
    run: () => add(harness({ clients: { C3: { clearing: { tradingLimit: 50_000 } } } }), bid('C3', 10_000, 10)),
    params: { limit: '500.00', exposure: '1000.00' },
  },
  {
    code: 'CLEARING_CLIENT_NOT_ALLOWED',
    rule: 'the clearing house allows the client on the asset',
    run: () => add(harness({ clients: { C3: { clearing: { allowedAssets: ['OTHER'] } } } }), bid('C3')),
    params: { clientCode: 'C3', assetId: ASSET },
  },
  { code: 'CLEARING_CLIENT_NOT_ACTIVE', rule: 'the client is active for trading at the clearing house', run: () => add(harness({ clients: { C3: { clearing: { activeForTrading: false } } } }), bid('C3')), params: { clientCode: 'C3' } },
  { code: 'CLEARING_MAX_CONTRACTS', rule: 'open contracts stay within the maximum', run: () => add(harness({ clients: { C3: { clearing: { maxContracts: 5 } } } }), bid('C3', 10_000, 6)), params: { max: 5 } },

  // ---- session phases
  {
    code: 'SESSION_PHASE_FORBIDS',
    rule: 'no new orders in closing',
    run: () => {
      const h = harness();
      h.phase('closing');
      return { h, act: () => h.add(bid()) };
    },
    params: { phase: 'closing' },
  },
  {
    code: 'SESSION_CLOSING_NO_PRICE_CHANGE',
    rule: 'no price change in closing',
    run: () => {
      const h = harness();
      const id = h.place('bid', 1_000, 10);
      h.phase('closing');
      return { h, act: () => h.modify(id, { price: 1_100 }) };
    },
  },
  {
    code: 'SESSION_SUSPENDED',
    rule: 'everything is refused while suspended',
    run: () => {
      const h = harness();
      h.ok({ type: 'operatorSuspend', at: h.now, marketId: MARKET });
      return { h, act: () => h.add(bid()) };
    },
  },
];

describe('order, session and clearing rules: one test per code', () => {
  for (const c of cases) {
    it(`${c.code}: ${c.rule}`, () => {
      const { h, act } = c.run();
      const before = h.engine.stateHash();
      const r = act();
      expect(r.result).toBe(c.code);
      // exactly the parameters the catalogue names, with the expected values
      expect(Object.keys(r.params ?? {}).sort()).toEqual([...errorCatalogue[c.code].params].sort());
      if (c.params) expect(r.params).toEqual(typeof c.params === 'function' ? c.params(h) : c.params);
      // a refusal emits nothing and changes nothing
      expect(r.events).toEqual([]);
      expect(h.engine.stateHash()).toBe(before);
      expect(h.engine.validateInternalState()).toEqual([]);
    });
  }

  /** Refused by the API or the sequencer, never by the engine: tested in tests/server/http/orders.routes.test.ts and tests/server/trading/sequencer.test.ts. */
  const refusedBeforeTheEngine = new Set<ErrorCode>(['ORDER_VALIDITY_NOT_EXPECTED', 'ORDER_VALIDITY_TOO_FAR', 'ORDER_IDEMPOTENCY_KEY_REUSED']);
  // The clearing house's own refusals (warranties, settlement, payments, nominations: server/clearing/),
  // not pre-trade checks of the engine; their routes' tests cover them.
  const refusedByTheClearingHouse = new Set<ErrorCode>([
    'CLEARING_CLIENT_NOT_FOUND',
    'CLEARING_DATE_RANGE_INVALID',
    'CLEARING_WARRANTY_NOT_FOUND',
    'CLEARING_WARRANTY_DATES_INVALID',
    'CLEARING_WARRANTY_DUPLICATE',
    'CLEARING_WARRANTY_RELEASED',
    'CLEARING_WARRANTY_CURRENCY',
    'CLEARING_SETTLEMENT_PRICE_NOT_FOUND',
    'CLEARING_SESSION_NOT_CLOSED',
    'CLEARING_SETTLEMENT_RUN_IN_PROGRESS',
    'CLEARING_OBLIGATION_NOT_FOUND',
    'CLEARING_OBLIGATION_ALREADY_SETTLED',
    'CLEARING_NOTE_NOT_FOUND',
    'CLEARING_REPORT_NOT_FOUND',
    'CLEARING_NOMINATION_NOT_FOUND',
    'CLEARING_NOMINATION_LOCKED',
    'CLEARING_NOMINATION_QUANTITY',
  ]);

  it('leaves to the clearing house only codes the engine never raises', () => {
    const engineSources = readdirSync(new URL('../../../server/engine/', import.meta.url), { recursive: true })
      .filter((file) => String(file).endsWith('.ts'))
      .map((file) => readFileSync(new URL(`../../../server/engine/${String(file)}`, import.meta.url), 'utf8'))
      .join('\n');
    expect([...refusedByTheClearingHouse].filter((code) => !(code in errorCatalogue) || engineSources.includes(`'${code}'`))).toEqual([]);
  });

  it('covers every order, session and clearing code of the catalogue', () => {
    const covered = new Set(cases.map((c) => c.code));
    const required = (Object.keys(errorCatalogue) as ErrorCode[]).filter((code) => (/^(ORDER|SESSION|CLEARING)_/.test(code) || code === 'PARTICIPANT_SUSPENDED') && !refusedBeforeTheEngine.has(code) && !refusedByTheClearingHouse.has(code));
    expect(required.filter((code) => !covered.has(code))).toEqual([]);
  });

  it('a refused command leaves the state exactly as it was', () => {
    const h = harness({ clients: { C3: { clearing: { maxContracts: 5 } } } });
    h.place('ask', 1_000, 10);
    const before = h.engine.stateHash();
    expect(h.add(bid('C3', 1_000, 6)).result).toBe('CLEARING_MAX_CONTRACTS');
    expect(h.engine.stateHash()).toBe(before);
  });
});
