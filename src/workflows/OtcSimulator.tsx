import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS } from '../../protocol/clearing.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import type { OtcDealDraft, OtcSimulation } from '../../protocol/workflows.ts';
import { toApiError } from '../api/errors.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { formatMinor } from '../i18n/format.ts';
import { formatAmount } from '../trading/account/amounts.ts';
import { simulateOtcDeal } from './workflow-api.ts';

/** The simulator asks once the user has stopped typing for this long. */
export const OTC_SIMULATION_DEBOUNCE_MS = 400;

type SimulationState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; simulation: OtcSimulation } | { status: 'error'; message: string };

/**
 * OTC exposure simulator (SPEC §2): for the draft as it stands, the margin the deal would block for
 * each side against its available funds, and the settlement price band the price must keep to. Asked
 * of the server as the user types (debounced; the previous question is abandoned), so the figures are
 * clearing's own; it changes nothing.
 */
export function OtcSimulator({ draft, asset }: { draft: OtcDealDraft | null; asset: AssetSpecification | undefined }) {
  const intl = useIntl();
  const draftKey = draft ? JSON.stringify(draft) : '';
  // The answer is kept with the draft it answers: a draft still being typed shows as simulating, none as the hint.
  const [answer, setAnswer] = useState<{ draftKey: string; state: SimulationState } | null>(null);
  const state: SimulationState = draftKey === '' ? { status: 'idle' } : answer?.draftKey === draftKey ? answer.state : { status: 'loading' };
  useEffect(() => {
    if (!draftKey) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      simulateOtcDeal(JSON.parse(draftKey) as OtcDealDraft, controller.signal).then(
        (simulation) => !controller.signal.aborted && setAnswer({ draftKey, state: { status: 'ready', simulation } }),
        (cause: unknown) => !controller.signal.aborted && setAnswer({ draftKey, state: { status: 'error', message: formatApiError(intl, toApiError(cause)) } }),
      );
    }, OTC_SIMULATION_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [draftKey, intl]);

  const priceDecimals = asset?.priceDecimals ?? 2;
  const price = (minor: number) => `${formatMinor(intl, minor, priceDecimals)}${asset ? ` ${asset.currency}` : ''}`;
  return (
    <section className="otc-simulator" aria-label={intl.formatMessage({ id: 'workflow.sim.title' })} aria-live="polite">
      <h3>
        <FormattedMessage id="workflow.sim.title" />
      </h3>
      {state.status === 'idle' && (
        <p className="muted small">
          <FormattedMessage id="workflow.sim.hint" />
        </p>
      )}
      {state.status === 'loading' && (
        <p className="muted small" role="status">
          <FormattedMessage id="workflow.sim.loading" />
        </p>
      )}
      {state.status === 'error' && (
        <p className="field-error small" role="alert">
          {state.message}
        </p>
      )}
      {state.status === 'ready' && (
        <SimulationFigures simulation={state.simulation} price={price} />
      )}
    </section>
  );
}

function SimulationFigures({ simulation, price }: { simulation: OtcSimulation; price: (minor: number) => string }) {
  const intl = useIntl();
  const amount = (minor: number) => formatAmount(intl, minor, CLEARING_AMOUNT_DECIMALS, simulation.currency);
  const sides = [
    { key: 'initiator', label: intl.formatMessage({ id: 'workflow.sim.initiator' }, { client: simulation.initiator.clientCode }), side: simulation.initiator },
    ...(simulation.partner ? [{ key: 'partner', label: intl.formatMessage({ id: 'workflow.sim.partner' }, { client: simulation.partner.clientCode }), side: simulation.partner }] : []),
  ];
  return (
    <>
      <p className="small">
        <FormattedMessage id="workflow.sim.value" values={{ value: amount(simulation.value) }} />
      </p>
      <table className="small">
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="workflow.sim.side" />
            </th>
            <th scope="col">
              <FormattedMessage id="workflow.sim.margin" />
            </th>
            <th scope="col">
              <FormattedMessage id="workflow.sim.available" />
            </th>
            <th scope="col">
              <FormattedMessage id="workflow.sim.funds" />
            </th>
          </tr>
        </thead>
        <tbody>
          {sides.map(({ key, label, side }) => (
            <tr key={key} data-side={key}>
              <th scope="row">{label}</th>
              <td className="align-end mono">{amount(side.margin)}</td>
              <td className="align-end mono">{amount(side.availableFunds)}</td>
              <td className={side.sufficient ? 'otc-sufficient' : 'otc-insufficient'}>
                <FormattedMessage id={side.sufficient ? 'workflow.sim.sufficient' : 'workflow.sim.insufficient'} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!simulation.partner && (
        <p className="muted small">
          <FormattedMessage id="workflow.sim.partnerHidden" />
        </p>
      )}
      {simulation.settlementPrice !== null && simulation.minPrice !== null && simulation.maxPrice !== null ? (
        <p className="small" data-band="">
          <FormattedMessage
            id="workflow.sim.band"
            values={{ min: price(simulation.minPrice), max: price(simulation.maxPrice), settlement: price(simulation.settlementPrice), percent: simulation.maxVariationPercent }}
          />{' '}
          <span className={simulation.priceWithinBand ? 'otc-within-band' : 'otc-out-of-band'}>
            <FormattedMessage id={simulation.priceWithinBand ? 'workflow.sim.withinBand' : 'workflow.sim.outOfBand'} />
          </span>
        </p>
      ) : (
        <p className="muted small">
          <FormattedMessage id="workflow.sim.noSettlement" />
        </p>
      )}
    </>
  );
}
