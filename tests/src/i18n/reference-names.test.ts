import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { readDemoExchange } from '../../../server/demo/demo-exchange.ts';
import { catalogues, messagesFor } from '../../../src/i18n/messages/index.ts';
import { assetTypeLabel, assetTypeLabelKey, assetTypes, localName, localNameIn } from '../../../src/i18n/reference-names.ts';

const market = { id: 'GAS-SPOT', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' } };

describe('reference names', () => {
  it("shows a market, ring or asset in the locale's language", () => {
    expect(localName(market, 'ro')).toBe('Gaze naturale spot');
    expect(localName(market, 'en')).toBe('Gas spot');
    expect(localNameIn(createIntl({ locale: 'ro', messages: messagesFor('ro') }), market)).toBe('Gaze naturale spot');
    expect(localNameIn(createIntl({ locale: 'en', messages: messagesFor('en') }), market)).toBe('Gas spot');
  });

  it('falls back to the name of record when a name is missing', () => {
    expect(localName({ name: 'Gas spot' }, 'ro')).toBe('Gas spot');
    expect(localName({ name: 'Gas spot', names: { ro: '', en: 'Gas spot' } }, 'ro')).toBe('Gas spot');
  });

  it('labels asset types in both languages and shows an unknown code as it is', () => {
    const ro = createIntl({ locale: 'ro', messages: messagesFor('ro') });
    const en = createIntl({ locale: 'en', messages: messagesFor('en') });
    expect(assetTypeLabel(ro, 'day')).toBe('Zi');
    expect(assetTypeLabel(en, 'quarter')).toBe('Quarter');
    expect(assetTypeLabel(ro, 'block-4h')).toBe('block-4h');
    for (const type of assetTypes) {
      for (const messages of Object.values(catalogues)) expect(messages[assetTypeLabelKey(type)!], type).toBeTruthy();
    }
  });

  it('every market, ring and asset of the demo has a Romanian and an English name, and every asset type a label', () => {
    const exchange = readDemoExchange();
    for (const entity of [...exchange.markets, ...exchange.rings, ...exchange.assets]) {
      expect(entity.names.en, entity.id).toBe(entity.name);
      expect(entity.names.ro, entity.id).not.toBe('');
    }
    // Romanian names differ from the English ones (a copy would mean an untranslated name).
    expect(exchange.markets.filter((entity) => entity.names.ro === entity.names.en)).toEqual([]);
    expect(exchange.assets.filter((entity) => entity.names.ro === entity.names.en)).toEqual([]);
    expect(exchange.assets.filter((asset) => assetTypeLabelKey(asset.spec.type) === null).map((asset) => asset.id)).toEqual([]);
  });
});
