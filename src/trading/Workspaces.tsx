import * as Dialog from '@radix-ui/react-dialog';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { fromPromise } from 'xstate';
import { selectedWorkspace, workspaceMachine, type Workspace, type WorkspaceDraft } from '../../machines/workspace.machine.ts';
import { workspaceTypes, type WorkspaceType } from '../../protocol/enums.ts';
import { workspaceAssets } from '../../protocol/workspaces.ts';
import type { AssetSpecification, Market, Ring } from '../../protocol/reference.ts';
import { createWorkspace, deleteWorkspace, fetchWorkspaces, updateWorkspace } from '../api/workspaces.ts';
import { useDialogs } from '../components/dialogs/DialogProvider.tsx';
import { useReturnFocus } from '../components/dialogs/return-focus.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { ticketFromLevel } from './AssetTrading.tsx';
import { useBook, useMyOrders } from './live.ts';
import { LiveMarketWatch } from './MarketWatch.tsx';
import { useCanAct } from '../auth/use-auth.ts';
import { PopOutButton } from './PopOutButton.tsx';
import { AssetOrderBook } from './bilateral/AssetOrderBook.tsx';
import { useTradingDesk } from './TradingDesk.tsx';
import { useLocalName } from '../i18n/reference-names.ts';

export interface WorkspaceReference {
  markets: readonly Market[];
  rings: readonly Ring[];
  assets: readonly AssetSpecification[];
}

export interface WorkspacesApi {
  list(): Promise<Workspace[]>;
  create(draft: WorkspaceDraft): Promise<Workspace>;
  update(workspace: Workspace): Promise<Workspace>;
  remove(id: string): Promise<unknown>;
}

export const serverWorkspacesApi: WorkspacesApi = {
  list: fetchWorkspaces,
  create: createWorkspace,
  update: updateWorkspace,
  remove: deleteWorkspace,
};

export function workspaceMachineWithApi(api: WorkspacesApi) {
  return workspaceMachine.provide({
    actors: {
      loadWorkspaces: fromPromise(() => api.list()),
      createWorkspace: fromPromise(({ input }: { input: WorkspaceDraft }) => api.create(input)),
      updateWorkspace: fromPromise(({ input }: { input: Workspace }) => api.update(input)),
      deleteWorkspace: fromPromise(({ input }: { input: { id: string } }) => api.remove(input.id)),
    },
  });
}

/** The workspace dialog: name, type, market, assets and rings. */
export function WorkspaceDialog({
  open,
  initial,
  reference,
  busy,
  error,
  onSave,
  onClose,
}: {
  open: boolean;
  initial: Workspace | null;
  reference: WorkspaceReference;
  busy: boolean;
  error: string | null;
  onSave: (draft: WorkspaceDraft) => void;
  onClose: () => void;
}) {
  const intl = useIntl();
  const nameOf = useLocalName();
  const id = useId();
  const returnFocus = useReturnFocus();
  const firstType: WorkspaceType = initial?.type ?? reference.markets[0]?.workspaceType ?? 'gas';
  const [name, setName] = useState(initial?.name ?? '');
  const [type, setType] = useState<WorkspaceType>(firstType);
  const [marketId, setMarketId] = useState(initial?.marketId ?? reference.markets.find((m) => m.workspaceType === firstType)?.id ?? '');
  const [assetIds, setAssetIds] = useState<string[]>(initial?.assetIds ?? []);
  const [ringIds, setRingIds] = useState<string[]>(initial?.ringIds ?? []);
  const [nameMissing, setNameMissing] = useState(false);
  const markets = reference.markets.filter((market) => market.workspaceType === type);
  const assets = reference.assets.filter((asset) => asset.marketId === marketId);
  const rings = reference.rings.filter((ring) => ring.marketId === marketId);
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const chooseMarket = (next: string) => {
    setMarketId(next);
    setAssetIds([]);
    setRingIds([]);
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-wide" onOpenAutoFocus={() => returnFocus.remember()} onCloseAutoFocus={(event) => returnFocus.restore(event)}>
          <Dialog.Title className="dialog-title">
            <FormattedMessage id={initial ? 'workspaces.edit' : 'workspaces.new'} />
          </Dialog.Title>
          <Dialog.Description className="dialog-description">
            <FormattedMessage id="workspaces.describe" />
          </Dialog.Description>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (name.trim() === '') {
                setNameMissing(true);
                return;
              }
              onSave({ name: name.trim(), type, marketId, assetIds, ringIds });
            }}
          >
            <div className={nameMissing ? 'field field-invalid' : 'field'}>
              <label htmlFor={`${id}-name`}>
                <FormattedMessage id="workspaces.name" />
              </label>
              <input
                id={`${id}-name`}
                value={name}
                maxLength={80}
                aria-invalid={nameMissing || undefined}
                onChange={(e) => {
                  setName(e.target.value);
                  setNameMissing(false);
                }}
              />
              {nameMissing && (
                <p className="field-error" role="alert">
                  <FormattedMessage id="validation.fieldRequired" />
                </p>
              )}
            </div>
            <div className="ticket-grid">
              <div className="field">
                <label htmlFor={`${id}-type`}>
                  <FormattedMessage id="workspaces.type" />
                </label>
                <select
                  id={`${id}-type`}
                  value={type}
                  onChange={(e) => {
                    const next = e.target.value as WorkspaceType;
                    setType(next);
                    chooseMarket(reference.markets.find((m) => m.workspaceType === next)?.id ?? '');
                  }}
                >
                  {workspaceTypes.map((candidate) => (
                    <option key={candidate} value={candidate}>
                      {intl.formatMessage({ id: enumLabelKey('workspaceType', candidate) })}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`${id}-market`}>
                  <FormattedMessage id="workspaces.market" />
                </label>
                <select id={`${id}-market`} value={marketId} onChange={(e) => chooseMarket(e.target.value)}>
                  {markets.map((market) => (
                    <option key={market.id} value={market.id}>
                      {nameOf(market)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            {rings.length > 0 && (
              <fieldset className="fieldset">
                <legend>
                  <FormattedMessage id="workspaces.rings" />
                </legend>
                <p className="muted small">
                  <FormattedMessage id="workspaces.ringsHint" />
                </p>
                <div className="check-grid">
                  {rings.map((ring) => (
                    <label key={ring.id} className="check">
                      <input type="checkbox" checked={ringIds.includes(ring.id)} onChange={() => setRingIds((list) => toggle(list, ring.id))} />
                      <span>{nameOf(ring)}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <fieldset className="fieldset">
              <legend>
                <FormattedMessage id="workspaces.assets" />
              </legend>
              <div className="check-grid">
                {assets.map((asset) => {
                  const viaRing = asset.ringId !== null && ringIds.includes(asset.ringId);
                  return (
                    <label key={asset.id} className="check" title={viaRing ? intl.formatMessage({ id: 'workspaces.inRing' }) : undefined}>
                      <input
                        type="checkbox"
                        checked={viaRing || assetIds.includes(asset.id)}
                        disabled={viaRing}
                        onChange={() => setAssetIds((list) => toggle(list, asset.id))}
                      />
                      <span className="mono">{asset.code}</span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
            {error && (
              <div className="alert alert-error" role="alert">
                {error}
              </div>
            )}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="button button-secondary" disabled={busy}>
                  <FormattedMessage id="ticket.close" />
                </button>
              </Dialog.Close>
              <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy || undefined}>
                <FormattedMessage id="workspaces.save" />
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function WorkspaceBook({ asset }: { asset: AssetSpecification }) {
  const desk = useTradingDesk();
  const canAct = useCanAct();
  const book = useBook(asset.id);
  const orders = useMyOrders();
  const nameOf = useLocalName();
  return (
    <section className="card workspace-book" aria-label={asset.code}>
      <div className="card-header">
        <h3 className="mono">{asset.code}</h3>
        <span className="muted small">{nameOf(asset)}</span>
        <PopOutButton asset={asset} />
      </div>
      <AssetOrderBook book={book} asset={asset} ownOrders={orders} maxHeight={200} onLevel={canAct && desk.canTrade ? (side, level) => desk.openTicket(ticketFromLevel(asset, side, level)) : undefined} />
    </section>
  );
}

/**
 * The user's personal workspaces (stored on the server): pick one to see its market watch and the
 * books of its assets; create, edit and delete them with the workspace dialog. With none picked, the
 * market watch of every market is shown (`fallback`).
 */
export function Workspaces({ reference, variant, fallback, api = serverWorkspacesApi }: { reference: WorkspaceReference; variant: string; fallback: React.ReactNode; api?: WorkspacesApi }) {
  const intl = useIntl();
  const nameOf = useLocalName();
  const dialogs = useDialogs();
  const machine = useMemo(() => workspaceMachineWithApi(api), [api]);
  const actor = useActorRef(machine);
  const snapshot = useSelector(actor, (s) => s);
  const selected = selectedWorkspace(snapshot);
  const [showAll, setShowAll] = useState(false);
  const [editing, setEditing] = useState<{ workspace: Workspace | null; key: number } | null>(null);
  const waiting = useRef(false);
  const busy = snapshot.matches('creating') || snapshot.matches('updating') || snapshot.matches('deleting');
  const error = snapshot.context.error ? formatApiError(intl, snapshot.context.error) : null;

  useEffect(() => {
    if (!waiting.current || busy) return;
    waiting.current = false;
    if (!snapshot.context.error) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the editor closes when the machine has finished the save it waited for
      setEditing(null);
      setShowAll(false);
    }
  }, [busy, snapshot.context.error]);

  const selectId = useId();
  const current = showAll ? null : selected;
  const assets = current ? workspaceAssets(current, reference.assets) : [];
  const market = current ? reference.markets.find((m) => m.id === current.marketId) : undefined;

  return (
    <>
      <div className="workspace-toolbar">
        <div className="field field-inline">
          <label htmlFor={selectId}>
            <FormattedMessage id="workspaces.mine" />
          </label>
          <select
            id={selectId}
            value={current?.id ?? ''}
            disabled={snapshot.matches('loading')}
            onChange={(e) => {
              if (e.target.value === '') setShowAll(true);
              else {
                setShowAll(false);
                actor.send({ type: 'SELECT', id: e.target.value });
              }
            }}
          >
            <option value="">{intl.formatMessage({ id: 'workspaces.allMarkets' })}</option>
            {snapshot.context.workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="button button-secondary" disabled={!snapshot.matches('ready')} onClick={() => setEditing({ workspace: null, key: Date.now() })}>
          <FormattedMessage id="workspaces.new" />
        </button>
        {current && (
          <>
            <button type="button" className="button button-secondary" disabled={!snapshot.matches('ready')} onClick={() => setEditing({ workspace: current, key: Date.now() })}>
              <FormattedMessage id="workspaces.edit" />
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={!snapshot.matches('ready')}
              onClick={async () => {
                const confirmed = await dialogs.confirm({
                  title: intl.formatMessage({ id: 'workspaces.deleteTitle' }, { name: current.name }),
                  description: intl.formatMessage({ id: 'workspaces.deleteDescription' }),
                  confirmLabel: intl.formatMessage({ id: 'workspaces.delete' }),
                  tone: 'danger',
                });
                if (confirmed) actor.send({ type: 'DELETE', id: current.id });
              }}
            >
              <FormattedMessage id="workspaces.delete" />
            </button>
          </>
        )}
      </div>
      {error && !editing && (
        <div className="alert alert-error" role="alert">
          {error}{' '}
          {snapshot.matches('loadFailed') ? (
            <button type="button" className="button button-small button-secondary" onClick={() => actor.send({ type: 'LOAD' })}>
              <FormattedMessage id="workspaces.retry" />
            </button>
          ) : (
            <button type="button" className="button button-small button-ghost" onClick={() => actor.send({ type: 'DISMISS_ERROR' })}>
              <FormattedMessage id="notify.dismiss" />
            </button>
          )}
        </div>
      )}
      {current && market ? (
        <div className={`workspace workspace-${variant} workspace-books`} data-workspace={current.id}>
          <section className="card workspace-panel grid-span-all" aria-labelledby={`ws-${current.id}`}>
            <div className="workspace-panel-header">
              <h2 id={`ws-${current.id}`}>{current.name}</h2>
              <span className="muted small">
                {nameOf(market)} · <FormattedMessage id={enumLabelKey('workspaceType', current.type)} />
              </span>
            </div>
            <LiveMarketWatch marketId={market.id} assets={assets.length > 0 ? assets : reference.assets.filter((a) => a.marketId === market.id)} label={intl.formatMessage({ id: 'marketWatch.title' }, { market: nameOf(market) })} onlyAssets={assets.length > 0 ? assets.map((asset) => asset.id) : undefined} />
          </section>
          {assets.map((asset) => (
            <WorkspaceBook key={asset.id} asset={asset} />
          ))}
        </div>
      ) : (
        fallback
      )}
      {editing && (
        <WorkspaceDialog
          key={editing.key}
          open
          initial={editing.workspace}
          reference={reference}
          busy={busy}
          error={error}
          onClose={() => {
            setEditing(null);
            actor.send({ type: 'DISMISS_ERROR' });
          }}
          onSave={(draft) => {
            waiting.current = true;
            if (editing.workspace) actor.send({ type: 'UPDATE', workspace: { ...draft, id: editing.workspace.id } });
            else actor.send({ type: 'CREATE', draft });
          }}
        />
      )}
    </>
  );
}
