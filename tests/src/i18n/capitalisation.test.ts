/**
 * Romanian messages are in sentence case: only the first word of a sentence is capitalised ('Ordin
 * creat', never 'Ordin Creat'), besides the proper nouns and key names listed here. The text of
 * select and plural options is checked too; a placeholder counts as a word.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../protocol/market-data.ts';
import { messagesFor } from '../../../src/i18n/messages/index.ts';
import { ro } from '../../../src/i18n/messages/ro.ts';
import { wireOrder } from '../../helpers/wire-order.ts';

/** Capitalised words allowed inside a Romanian sentence: proper nouns (the exchange's name), keyboard keys, product names. */
const properNouns = new Set(['Bursa', 'București', 'Europe/Bucharest', 'Enter', 'Escape', 'Shift', 'Shift+Enter', 'Tab', 'WebSocket', 'România', 'Google', 'Microsoft', 'Authenticator', 'OpenAPI', 'AsyncAPI']);

const capitalised = /^[A-ZĂÂÎȘȚ][a-zăâîșț]/u;
const sentenceEnd = /[.!?:;…]$/u;

/** Words capitalised inside a sentence, with their context. */
function titleCaseWords(message: string): string[] {
  const found: string[] = [];
  const walk = (elements: MessageFormatElement[], atStart: boolean): boolean => {
    let start = atStart;
    for (const element of elements) {
      if (element.type === TYPE.literal) {
        // A line break or a sentence end starts a new sentence.
        for (const [index, line] of element.value.split('\n').entries()) {
          if (index > 0) start = true;
          const words = line.split(/\s+/u).filter(Boolean);
          for (const raw of words) {
            const word = raw.replace(/^[„"'(«[—–-]+/u, '').replace(/[”"')»\],.!?:;…]+$/u, '');
            if (word !== '' && !start && capitalised.test(word) && !properNouns.has(word)) found.push(word);
            start = sentenceEnd.test(raw.replace(/[”"')»\]]+$/u, ''));
          }
        }
      } else if (element.type === TYPE.select || element.type === TYPE.plural) {
        let after = false;
        for (const option of Object.values(element.options)) after = walk(option.value, start) || after;
        start = after;
      } else if (element.type === TYPE.tag) {
        start = walk(element.children, start);
      } else {
        start = false; // a placeholder or # is a word
      }
    }
    return start;
  };
  walk(parse(message), true);
  return found;
}

describe('Romanian capitalisation', () => {
  it('catches Title Case and lets sentence case, proper nouns and codes through', () => {
    expect(titleCaseWords('Ordin Creat')).toEqual(['Creat']);
    expect(titleCaseWords('Istoricul Ordinelor')).toEqual(['Ordinelor']);
    expect(titleCaseWords('{count, plural, one {Un Ordin} other {# Ordine}}')).toEqual(['Ordin', 'Ordine']);
    expect(titleCaseWords('Ordin {status, select, created {Creat} other {{status}}}')).toEqual(['Creat']);
    expect(titleCaseWords('Ordin creat')).toEqual([]);
    expect(titleCaseWords('Ora bursei (București). Enter trimite. Ordin GTC în RON și MWh.')).toEqual([]);
    expect(titleCaseWords('Eroare: Serverul nu răspunde!')).toEqual([]);
    expect(titleCaseWords('{asset}: Preț')).toEqual([]);
    expect(titleCaseWords('Primul rând\nAl doilea Rând')).toEqual(['Rând']);
  });

  it('every Romanian message is in sentence case', () => {
    const offenders = Object.entries(ro)
      .map(([key, text]) => [key, titleCaseWords(text)] as const)
      .filter(([, words]) => words.length > 0)
      .map(([key, words]) => `${key}: ${words.join(', ')}`);
    expect(offenders).toEqual([]);
  });

  it("an order notification words its status inside the sentence ('Ordin creat', 'Order created')", () => {
    const order: Order = wireOrder({ orderId: 'O1', status: 'created' });
    const values = { status: order.status, way: 'Cumpărare', qty: '5,0', asset: 'GSPOT-DA', price: '130,00', client: 'RO-HIDRO' };
    const intlRo = createIntl({ locale: 'ro', messages: messagesFor('ro') });
    const intlEn = createIntl({ locale: 'en', messages: messagesFor('en') });
    expect(intlRo.formatMessage({ id: 'notify.order' }, values)).toBe('Ordin creat: Cumpărare 5,0 GSPOT-DA la 130,00 pentru RO-HIDRO');
    expect(intlRo.formatMessage({ id: 'notify.order' }, { ...values, status: 'tradedPartially' })).toMatch(/^Ordin tranzacționat parțial:/);
    expect(intlEn.formatMessage({ id: 'notify.order' }, values)).toMatch(/^Order created:/);
  });

  it("a phase change words the phase inside the sentence ('în faza de închidere')", () => {
    const intlRo = createIntl({ locale: 'ro', messages: messagesFor('ro') });
    const intlEn = createIntl({ locale: 'en', messages: messagesFor('en') });
    const values = { scope: 'market', market: 'Gaze naturale spot', asset: '', phase: 'closing' };
    expect(intlRo.formatMessage({ id: 'notifications.phaseChanged' }, values)).toBe('Gaze naturale spot este acum în faza de închidere');
    expect(intlRo.formatMessage({ id: 'notifications.phaseChanged' }, { ...values, scope: 'asset', asset: 'GSPOT-DA', phase: 'suspended' })).toBe(
      'GSPOT-DA (Gaze naturale spot) are acum sesiunea suspendată',
    );
    expect(intlEn.formatMessage({ id: 'notifications.phaseChanged' }, { ...values, market: 'Gas spot' })).toBe('Gas spot is now in the closing phase');
  });
});
