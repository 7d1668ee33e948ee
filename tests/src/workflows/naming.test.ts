import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { intlLocale } from '../../../src/i18n/locale.ts';
import { catalogues } from '../../../src/i18n/messages/index.ts';
import { namingOf, workflowFullName, workflowName } from '../../../src/workflows/naming.ts';
import { instance } from './workflow-fixtures.tsx';

const intlOf = (locale: 'en' | 'ro') => createIntl({ locale: intlLocale(locale), messages: catalogues[locale] });

describe('workflow names', () => {
  it('tell apart two deals of the same clients not yet transactions, by when each was registered (exchange time)', () => {
    const morning = instance('otc', [], { instanceId: 'WF-otc-1', createdAt: '2026-11-20T08:00:00.000Z' });
    const later = instance('otc', [], { instanceId: 'WF-otc-2', createdAt: '2026-11-20T08:00:01.000Z' });
    for (const locale of ['en', 'ro'] as const) {
      const intl = intlOf(locale);
      expect(workflowName(intl, namingOf(morning))).not.toBe(workflowName(intl, namingOf(later)));
      expect(workflowFullName(intl, namingOf(morning))).not.toBe(workflowFullName(intl, namingOf(later)));
    }
    // 08:00 UTC is 10:00 in Bucharest in November.
    expect(workflowName(intlOf('en'), namingOf(morning))).toBe('OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00');
    expect(workflowName(intlOf('ro'), namingOf(later))).toBe('Tranzacția OTC între RO-HIDRO și RO-TERMO, din 20.11.2026, 10:00:01');
  });

  it('name an item with a transaction by its number alone, and its confirmation with both clients, with no date', () => {
    const transfer = instance('transfer');
    expect(workflowName(intlOf('en'), namingOf(transfer))).toBe('Transfer to CCP of transaction 1001');
    expect(workflowFullName(intlOf('en'), namingOf(transfer))).toBe('Transfer to CCP of transaction 1001 between RO-HIDRO and RO-TERMO');
    expect(workflowName(intlOf('ro'), namingOf(transfer))).toBe('Transferul la CCP al tranzacției 1001');
  });

  it('never carry the internal instance id', () => {
    for (const kind of ['otc', 'transfer', 'marginActivation', 'contract', 'whitelist'] as const) {
      const item = instance(kind, [], { instanceId: 'wf-0123456789abcdef' });
      for (const locale of ['en', 'ro'] as const) {
        expect(workflowName(intlOf(locale), namingOf(item))).not.toContain('wf-0123456789abcdef');
        expect(workflowFullName(intlOf(locale), namingOf(item))).not.toContain('wf-0123456789abcdef');
      }
    }
  });
});
