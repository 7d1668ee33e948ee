// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LimitsAtAGlance } from '../../../../src/trading/account/LimitsAtAGlance.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { limits, plain } from './fixtures.ts';

afterEach(cleanup);

describe('limits at a glance (home page)', () => {
  it("shows each client's limit, exposure and headroom with the usage bar", () => {
    render(
      <WithIntl>
        <LimitsAtAGlance limits={[limits({ code: 'RO-HIDRO', exposure: 900_000 }), limits({ code: 'RO-FREE', tradingLimit: null })]} amountDecimals={2} />
      </WithIntl>,
    );
    const items = screen.getAllByRole('listitem');
    expect(plain(items[0]!.textContent)).toContain('90% used');
    expect(plain(items[0]!.textContent)).toContain('RON 10,000.00');
    expect(plain(items[0]!.textContent)).toContain('RON 9,000.00');
    expect(plain(items[0]!.textContent)).toContain('RON 1,000.00');
    expect(screen.getByRole('meter').dataset.level).toBe('warning');
    expect(plain(items[1]!.textContent)).toContain('No limit');
    expect(screen.getAllByRole('meter')).toHaveLength(1);
  });

  it('says when there are no client accounts, in Romanian', () => {
    render(
      <WithIntl locale="ro">
        <LimitsAtAGlance limits={[]} amountDecimals={2} />
      </WithIntl>,
    );
    expect(screen.getByText('Nu aveți conturi de client alocate.')).toBeTruthy();
  });
});
