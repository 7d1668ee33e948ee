import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
// Both are dependencies of react-intl (the parser react-intl itself uses), not direct ones.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import * as protocolEnums from '../../../protocol/enums.ts';
import { errorCatalogue, errorCodes } from '../../../protocol/error-codes.ts';
import { NETWORK_ERROR } from '../../../src/api/errors.ts';
import { enumLabelGroups, orderStatusLabelKey } from '../../../src/i18n/enum-labels.ts';
import { formatApiError } from '../../../src/i18n/format-error.ts';
import { en } from '../../../src/i18n/messages/en.ts';
import { catalogues, messagesFor } from '../../../src/i18n/messages/index.ts';
import { ro } from '../../../src/i18n/messages/ro.ts';

const languages = Object.entries(catalogues) as Array<[string, Record<string, string>]>;
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const srcDir = join(repoRoot, 'src');

/** Every argument a message needs: simple, number/date/time, select, plural (recursing into options) and tags. */
function argumentNames(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(element.value);
        break;
      case TYPE.select:
      case TYPE.plural:
        into.add(element.value);
        for (const option of Object.values(element.options)) argumentNames(option.value, into);
        break;
      case TYPE.tag:
        into.add(element.value);
        argumentNames(element.children, into);
        break;
      default:
        break;
    }
  }
  return into;
}

function argsOf(message: string): string[] {
  return [...argumentNames(parse(message))].sort();
}

/** Sample values: numbers for plural arguments, strings otherwise. */
function sampleValues(message: string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.plural) values[element.value] = 3;
      else if ('value' in element && typeof element.value === 'string' && element.type !== TYPE.literal) {
        values[element.value] ??= 'X';
      }
      if (element.type === TYPE.select || element.type === TYPE.plural) {
        for (const option of Object.values(element.options)) visit(option.value);
      }
    }
  };
  visit(parse(message));
  return values;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Files that use messages, i.e. all of src/ except the catalogues themselves. */
// machines/ too: the order ticket machine yields its validation keys (validationKeys).
const usingFiles = [...sourceFiles(srcDir).filter((path) => !relative(srcDir, path).startsWith(join('i18n', 'messages'))), ...sourceFiles(join(repoRoot, 'machines'))];
const looksLikeKey = /^[a-z][\w-]*(\.[\w-]+)+$/;

describe('message catalogues', () => {
  it('Romanian and English have the same keys', () => {
    const roKeys = Object.keys(ro).sort();
    const enKeys = Object.keys(en).sort();
    expect(roKeys.filter((key) => !(key in en)), 'keys only in ro').toEqual([]);
    expect(enKeys.filter((key) => !(key in ro)), 'keys only in en').toEqual([]);
  });

  it('has no empty message', () => {
    for (const [language, messages] of languages) {
      const empty = Object.entries(messages).filter(([, text]) => text.trim() === '').map(([key]) => key);
      expect(empty, `empty messages in ${language}`).toEqual([]);
    }
  });

  it('every message is valid ICU and formats with sample values', () => {
    for (const [language, messages] of languages) {
      for (const [key, text] of Object.entries(messages)) {
        expect(() => parse(text), `${language} ${key} does not parse`).not.toThrow();
        const formatted = new IntlMessageFormat(text, language).format(sampleValues(text));
        expect(typeof formatted, `${language} ${key}`).toBe('string');
      }
    }
  });

  it('both languages use the same placeholders for every key', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(argsOf(ro[key]), `placeholders of ${key} (ro vs en)`).toEqual(argsOf(en[key]));
    }
  });

  it('every code of the error catalogue has a message in every language', () => {
    for (const [language, messages] of languages) {
      const missing = errorCodes.filter((code) => !(`error.${code}` in messages));
      expect(missing, `codes without an ${language} message`).toEqual([]);
    }
  });

  it("each error message's placeholders are exactly the code's params", () => {
    for (const [language, messages] of languages) {
      for (const code of errorCodes) {
        const text = messages[`error.${code}`];
        if (text === undefined) continue; // reported by the test above
        const expected = [...(errorCatalogue[code].params as readonly string[])].sort();
        expect(argsOf(text), `${language} error.${code}`).toEqual(expected);
      }
    }
  });

  it('has no error message for a code the catalogue does not have', () => {
    const stale = Object.keys(en).filter(
      (key) => key.startsWith('error.') && !key.startsWith('error.client.') && !(key.slice(6) in errorCatalogue),
    );
    expect(stale).toEqual([]);
  });

  it('uses the exact English wording of the SPEC', () => {
    const spec: Record<string, string> = {
      'error.UNKNOWN_ERROR': 'Unknown error!',
      'error.client.unknownCode': 'Error: {code}',
      'error.client.network': 'Cannot reach server!',
      'error.AUTH_PASSWORD_EXPIRED': 'Password expired!',
      'error.AUTH_PASSWORD_USED_BEFORE': 'Password used before!',
      'validation.passwordInvalid': 'Invalid password!',
      'error.AUTH_PASSWORDS_NOT_MATCHING': 'The passwords are not matching!',
      'validation.passwordsNotMatching': 'The passwords are not matching!',
      'error.ORDER_PRICE_MISSING': 'Price is required!',
      'validation.priceRequired': 'Price is required!',
      // 'Invalid price!' and 'Invalid quantity!' gave way to messages that state the rule (issue 11).
      'validation.fieldRequired': 'Field required!',
      'page.notFound': 'This page could not be found',
      'page.error.unknownMiddleware': 'Unknown middleware',
    };
    for (const [key, text] of Object.entries(spec)) expect(en[key as keyof typeof en], key).toBe(text);
  });

  it('writes Romanian with comma-below ș ț, never the cedilla forms ş ţ', () => {
    const cedilla = Object.entries(ro).filter(([, text]) => /[şţŞŢ]/.test(text)).map(([key]) => key);
    expect(cedilla).toEqual([]);
  });
});

describe('status labels', () => {
  it('every value of every label group has a message', () => {
    for (const [language, messages] of languages) {
      for (const [group, { prefix, values }] of Object.entries(enumLabelGroups)) {
        const missing = values.filter((value) => !(`${prefix}${value}` in messages));
        expect(missing, `${language} labels missing for ${group} (${prefix}*)`).toEqual([]);
      }
    }
  });

  it('every status/type tuple exported by protocol/enums.ts is labelled', () => {
    const labelled = new Set<unknown>(Object.values(enumLabelGroups).map((group) => group.values));
    const unlabelled = Object.entries(protocolEnums)
      .filter(([, value]) => Array.isArray(value) && value.every((item) => typeof item === 'string'))
      // The legacy order statuses are labelled through legacyOrderStatusMap (checked below).
      .filter(([name, value]) => name !== 'legacyOrderStatuses' && !labelled.has(value))
      .map(([name]) => name);
    expect(unlabelled, 'add these to src/i18n/enum-labels.ts and the catalogues').toEqual([]);
  });

  it('legacy order statuses get the label of the current status they map to', () => {
    for (const legacy of protocolEnums.legacyOrderStatuses) {
      expect(orderStatusLabelKey(legacy), legacy).toBe(`status.order.${protocolEnums.legacyOrderStatusMap[legacy]}`);
    }
    expect(en[orderStatusLabelKey('partial') as keyof typeof en]).toBe('Partially traded');
  });
});

describe('message keys used in src/', () => {
  const dynamicPrefixes = ['error.', ...Object.values(enumLabelGroups).map((group) => group.prefix)];
  /** Keys for screens not written yet (order form, password change); they still must be translated. */
  // The clearing notifications' keys come from the server (server/clearing/clearing-notifier.ts); describe.ts shows any key it finds.
  // The workflows' notification key comes from the server too (server/workflows/workflow-publisher.ts).
  // The participant reinstatement's key comes from the server too (server/trading/notifications.ts participantChanged).
  const reservedForUpcomingScreens = new Set<string>(['notifications.warrantyExpiring', 'notifications.marginCall', 'notifications.workflow', 'notifications.participantReinstated']);

  it('every literal message id in src/ exists', () => {
    const missing: string[] = [];
    // `id: '...'`, `id="..."`, `id={'...'}` and `id={cond ? '...' : '...'}`; HTML ids have no dots.
    const idExpression = /\bid\s*[:=]\s*\{?([^}\n]*)/g;
    for (const file of usingFiles) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(idExpression)) {
        for (const literal of (match[1] ?? '').matchAll(/(['"])([^'"]+)\1/g)) {
          const key = literal[2] ?? '';
          if (looksLikeKey.test(key) && !(key in messagesFor('en'))) missing.push(`${relative(repoRoot, file)}: ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('has no unused key (keys looked up by prefix are exempt)', () => {
    const literals = new Set<string>();
    for (const file of usingFiles) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(['"`])([a-z][\w.-]*)\1/g)) literals.add(match[2] ?? '');
    }
    const unused = Object.keys(en).filter(
      (key) =>
        !literals.has(key) &&
        !dynamicPrefixes.some((prefix) => key.startsWith(prefix)) &&
        !reservedForUpcomingScreens.has(key),
    );
    expect(unused).toEqual([]);
  });
});

describe('formatApiError', () => {
  const intlEn = createIntl({ locale: 'en', messages: messagesFor('en') });
  const intlRo = createIntl({ locale: 'ro', defaultLocale: 'ro', messages: messagesFor('ro') });

  it('fills the params of a catalogue code', () => {
    const error = { code: 'ORDER_SESSION_MIN_PRICE', params: { bound: '120.50', currency: 'RON' } };
    expect(formatApiError(intlEn, error)).toBe('The price is below the session minimum of 120.50 RON.');
    expect(formatApiError(intlRo, error)).toBe('Prețul este sub minimul sesiunii de 120,50 RON.');
  });

  it('states the rule of a step or bound refusal, numbers in the locale format', () => {
    const step = { code: 'ORDER_PRICE_STEP', params: { step: '0.01', currency: 'RON' } };
    expect(formatApiError(intlEn, step)).toBe('The price must be a multiple of 0.01 RON.');
    expect(formatApiError(intlRo, step)).toBe('Prețul trebuie să fie multiplu de 0,01 RON.');
    const quantity = { code: 'ORDER_QUANTITY_INVALID', params: { step: '0.100', min: '0.100', max: '1000.000', unit: 'MWh' } };
    expect(formatApiError(intlEn, quantity)).toBe('Invalid quantity! It must be a multiple of 0.100 between 0.100 and 1,000.000 MWh.');
    expect(formatApiError(intlRo, quantity)).toBe('Cantitate invalidă! Trebuie să fie multiplu de 0,100, între 0,100 și 1.000,000 MWh.');
    // An older server without the qualifier: the message still reads, without a stray space.
    expect(formatApiError(intlEn, { code: 'ORDER_QUANTITY_STEP', params: { step: '5' } })).toBe('The quantity must be a multiple of 5.');
    // The OTC band's settlement price too (issue 15: it read '200.00' in Romanian).
    const band = { code: 'OTC_PRICE_VARIATION', params: { maxPercent: 25, settlementPrice: '1200.00' } };
    expect(formatApiError(intlEn, band)).toBe('The price differs by more than 25% from the settlement price of 1,200.00.');
    expect(formatApiError(intlRo, band)).toBe('Prețul diferă cu mai mult de 25% față de prețul de decontare de 1.200,00.');
    // Ids and codes are not numbers to format.
    expect(formatApiError(intlEn, { code: 'ORDER_NOT_FOUND', params: { orderId: '12345' } })).toBe('Order 12345 was not found or has expired.');
  });

  it('uses Romanian plural forms', () => {
    const tooMany = (seconds: number | string) => ({ code: 'AUTH_TOO_MANY_ATTEMPTS', params: { retryAfterSeconds: seconds } });
    expect(formatApiError(intlRo, tooMany(1))).toContain('1 secundă');
    expect(formatApiError(intlRo, tooMany(5))).toContain('5 secunde');
    expect(formatApiError(intlRo, tooMany('30'))).toContain('30 de secunde');
    expect(formatApiError(intlEn, tooMany(1))).toContain('1 second.');
  });

  it('translates enum-valued params inside the message', () => {
    const error = { code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closing' } };
    expect(formatApiError(intlEn, error)).toBe('Orders cannot be placed or cancelled in the closing phase.');
    expect(formatApiError(intlRo, error)).toBe('Ordinele nu pot fi plasate sau anulate în faza de închidere.');
  });

  it('shows timestamps in exchange time', () => {
    const text = formatApiError(intlEn, { code: 'ORDER_DELTA_T_LOCKED', params: { endsAt: '2025-01-15T10:30:00Z' } });
    expect(text).toContain('12:30:00'); // Europe/Bucharest is UTC+2 in January
  });

  it('never shows a raw placeholder when a param is missing', () => {
    const text = formatApiError(intlEn, { code: 'ORDER_SESSION_MAX_PRICE', params: {} });
    expect(text).toBe('The price is above the session maximum of ….');
    expect(text).not.toContain('{');
    expect(formatApiError(intlEn, { code: 'ORDER_PRICE_ZERO' })).toBe('The price cannot be zero.');
  });

  it("unknown code -> 'Error: {code}', network -> 'Cannot reach server!'", () => {
    expect(formatApiError(intlEn, { code: 'SOMETHING_NEW', params: {} })).toBe('Error: SOMETHING_NEW');
    expect(formatApiError(intlRo, { code: 'SOMETHING_NEW', params: {} })).toBe('Eroare: SOMETHING_NEW');
    expect(formatApiError(intlEn, { code: NETWORK_ERROR })).toBe('Cannot reach server!');
    expect(formatApiError(intlRo, { code: NETWORK_ERROR })).toBe('Serverul nu poate fi contactat!');
    expect(formatApiError(intlEn, { code: 'UNKNOWN_ERROR' })).toBe('Unknown error!');
  });

  it('does not treat inherited object properties as codes', () => {
    expect(formatApiError(intlEn, { code: 'toString' })).toBe('Error: toString');
  });
});

describe('fallback to English', () => {
  it('fills a gap in a catalogue from English', () => {
    const saved = catalogues.ro;
    const { 'login.title': _dropped, ...partial } = ro;
    catalogues.ro = partial as typeof catalogues.ro;
    try {
      const merged = messagesFor('ro');
      expect(merged['login.title']).toBe(en['login.title']);
      expect(merged['login.username']).toBe(ro['login.username']);
    } finally {
      catalogues.ro = saved;
    }
    expect(messagesFor('ro')['login.title']).toBe(ro['login.title']);
  });
});
