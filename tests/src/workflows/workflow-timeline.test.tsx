// @vitest-environment jsdom
/** The history's first entry says what happened for the workflow's kind (the server records `create` for all). */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowKind } from '../../../protocol/workflows.ts';
import { WorkflowTimeline } from '../../../src/workflows/WorkflowTimeline.tsx';
import { WithIntl } from '../components/intl.tsx';
import { instance } from './workflow-fixtures.tsx';
import { render } from '@testing-library/react';

afterEach(cleanup);

function firstAction(locale: 'en' | 'ro', kind: WorkflowKind): string {
  render(
    <WithIntl locale={locale}>
      <WorkflowTimeline instance={instance(kind)} />
    </WithIntl>,
  );
  const entries = within(screen.getByRole('region')).getAllByRole('listitem');
  expect(entries).toHaveLength(1);
  const action = entries[0]!.querySelector('.workflow-history-action')?.textContent ?? '';
  cleanup();
  return action;
}

describe('the first history entry', () => {
  it('says a transfer, a margin activation and a whitelist change were requested, an OTC deal registered, a contract opened', () => {
    expect(firstAction('en', 'transfer')).toBe('Requested');
    expect(firstAction('ro', 'transfer')).toBe('Cerere');
    expect(firstAction('en', 'marginActivation')).toBe('Requested');
    expect(firstAction('en', 'whitelist')).toBe('Requested');
    expect(firstAction('en', 'otc')).toBe('Registered');
    expect(firstAction('ro', 'otc')).toBe('Înregistrare');
    expect(firstAction('en', 'contract')).toBe('Opened');
    expect(firstAction('ro', 'contract')).toBe('Deschidere');
  });
});
