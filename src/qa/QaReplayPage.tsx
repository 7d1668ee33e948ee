import { useEffect, useMemo, useState, useSyncExternalStore, type ChangeEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../app/use-page-title.ts';
import { useAsync } from '../app/use-async.ts';
import { saveFile } from '../components/csv.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { RealtimeScope, loadReference, realtimeOf } from '../realtime/RealtimeProvider.tsx';
import { toClientError, type ClientError } from '../../streams/api.ts';
import { parseRecording } from '../../streams/recording.ts';
import type { ReplaySpeed } from '../../streams/player.ts';
import { dumpTargetOfRecording, ReplayController, type ReplaySnapshot } from './replay-controller.ts';
import { ReplayViews } from './ReplayViews.tsx';
import { FramesPanel, MachinesPanel } from './ReplayPanels.tsx';
import { fetchRecording, fetchRecordings } from './replay-api.ts';
import './qa.css';

interface Opened {
  name: string;
  controller: ReplayController;
}

type OpenFailure = ClientError | 'noBook';

/** Reads a recording's text: the shared parser's RECORDING_INVALID, or a recording without a book. */
function openRecording(name: string, text: string, withReference: boolean): Opened | OpenFailure {
  let frames;
  try {
    frames = parseRecording(text);
  } catch (error) {
    return toClientError(error);
  }
  if (!dumpTargetOfRecording(frames)) return 'noBook';
  return { name, controller: new ReplayController(frames, withReference ? { loadReference } : {}) };
}

const speeds: readonly ReplaySpeed[] = [1, 10, 'max'];

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

export interface QaReplayPageProps {
  /** The views' reference data from the server (false in component tests). */
  withReference?: boolean;
}

/**
 * /qa/replay (issue 16), for QA and the administrator: open a recording from the server's list
 * (fixtures/sessions) or a file, play it through the app's own session stack into the real views, with
 * the machine states and the frames beside them.
 */
export function QaReplayPage({ withReference = true }: QaReplayPageProps) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'qa.title' }));
  const list = useAsync((signal) => fetchRecordings(signal), []);
  const [choice, setChoice] = useState('');
  const [opened, setOpened] = useState<Opened | null>(null);
  const [error, setError] = useState<OpenFailure | null>(null);

  useEffect(() => () => opened?.controller.close(), [opened]);

  function open(result: Opened | OpenFailure) {
    if (typeof result === 'object' && 'controller' in result) {
      setError(null);
      setOpened(result);
    } else {
      setError(result);
    }
  }

  async function openFromServer() {
    if (!choice) return;
    try {
      open(openRecording(choice, await fetchRecording(choice), withReference));
    } catch (failure) {
      setError(toClientError(failure));
    }
  }

  async function openFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    open(openRecording(file.name, await file.text(), withReference));
    event.target.value = '';
  }

  const recordings = list.status === 'success' ? list.data : [];
  return (
    <div className="page qa-replay">
      <div className="page-header">
        <div>
          <h1>
            <FormattedMessage id="qa.title" />
          </h1>
          <p className="muted">
            <FormattedMessage id="qa.intro" />
          </p>
        </div>
      </div>

      <section className="card qa-source" aria-labelledby="qa-source-title">
        <h2 id="qa-source-title">
          <FormattedMessage id="qa.source.title" />
        </h2>
        <div className="qa-source-row">
          <label className="field">
            <span>
              <FormattedMessage id="qa.source.server" />
            </span>
            <select value={choice} onChange={(event) => setChoice(event.target.value)} aria-busy={list.status === 'loading'}>
              <option value="">{intl.formatMessage({ id: list.status === 'loading' ? 'qa.source.loading' : 'qa.source.choose' })}</option>
              {recordings.map((recording) => (
                <option key={recording.name} value={recording.name}>
                  {recording.name} ({intl.formatNumber(Math.ceil(recording.sizeBytes / 1024))} KB)
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="button button-primary" disabled={!choice} onClick={() => void openFromServer()}>
            <FormattedMessage id="qa.source.open" />
          </button>
          <label className="field">
            <span>
              <FormattedMessage id="qa.source.upload" />
            </span>
            <input type="file" accept=".jsonl,application/x-ndjson,application/json,text/plain" onChange={(event) => void openFile(event)} />
          </label>
        </div>
        {error && (
          <div className="alert alert-error" role="alert">
            {error === 'noBook' ? intl.formatMessage({ id: 'qa.source.noBook' }) : formatApiError(intl, error)}
          </div>
        )}
        {list.status === 'error' && (
          <div className="alert alert-error" role="alert">
            {formatApiError(intl, toClientError(list.error))}
          </div>
        )}
      </section>

      {opened && <ReplayBench key={opened.controller.frames.length + opened.name} opened={opened} />}
    </div>
  );
}

function ReplayBench({ opened }: { opened: Opened }) {
  const { controller, name } = opened;
  const intl = useIntl();
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const [seekTo, setSeekTo] = useState('0');
  useEffect(() => {
    if (!controller.current) controller.start(true);
  }, [controller]);
  const current = controller.current;
  // The views take the session of the current run (a seek back makes a new one).
  const realtime = useMemo(() => (current ? realtimeOf(current.connection, current.session) : null), [current]);
  const { assetId, marketId } = controller.target;

  return (
    <>
      <section className="card qa-controls" aria-labelledby="qa-controls-title">
        <div className="card-header">
          <h2 id="qa-controls-title">
            <FormattedMessage id="qa.controls.title" />
          </h2>
          <span className="muted small">
            <FormattedMessage id="qa.source.opened" values={{ name, frames: controller.frames.length, seconds: seconds(controller.duration), assetId, marketId }} />
          </span>
        </div>
        <div className="qa-controls-row">
          {snapshot.paused || snapshot.done ? (
            <button type="button" className="button button-primary" onClick={() => controller.play()} disabled={snapshot.done}>
              <FormattedMessage id="qa.controls.play" />
            </button>
          ) : (
            <button type="button" className="button button-primary" onClick={() => controller.pause()} disabled={snapshot.done}>
              <FormattedMessage id="qa.controls.pause" />
            </button>
          )}
          <button type="button" className="button" onClick={() => void controller.step()} disabled={snapshot.done}>
            <FormattedMessage id="qa.controls.step" />
          </button>
          <button type="button" className="button button-ghost" onClick={() => controller.start(true)}>
            <FormattedMessage id="qa.controls.restart" />
          </button>
          <fieldset className="qa-speed">
            <legend>
              <FormattedMessage id="qa.controls.speed" />
            </legend>
            {speeds.map((speed) => (
              <label key={String(speed)}>
                <input type="radio" name="qa-speed" checked={snapshot.speed === speed} onChange={() => controller.setSpeed(speed)} />
                {speed === 'max' ? intl.formatMessage({ id: 'qa.controls.speedMax' }) : `${speed}×`}
              </label>
            ))}
          </fieldset>
          <form
            className="qa-seek"
            onSubmit={(event) => {
              event.preventDefault();
              const value = Number(seekTo.replace(',', '.'));
              if (Number.isFinite(value)) controller.seek(value * 1000);
            }}
          >
            <label className="field">
              <span>
                <FormattedMessage id="qa.controls.seek" />
              </span>
              <input type="number" min={0} step={0.1} value={seekTo} onChange={(event) => setSeekTo(event.target.value)} />
            </label>
            <button type="submit" className="button">
              <FormattedMessage id="qa.controls.seekGo" />
            </button>
          </form>
        </div>
        <ReplayStatus snapshot={snapshot} />
      </section>

      <div className="qa-grid">
        <MachinesPanel state={snapshot.state} />
        <FramesPanel frames={snapshot.frames} />
        {realtime && (
          <RealtimeScope value={realtime}>
            <ReplayViews key={snapshot.run} assetId={assetId} marketId={marketId} serverTime={snapshot.serverTime} />
          </RealtimeScope>
        )}
      </div>
    </>
  );
}

function ReplayStatus({ snapshot }: { snapshot: ReplaySnapshot }) {
  const dump = snapshot.finalDump;
  return (
    <div className="qa-status" role="status" data-replay-done={snapshot.done ? 'true' : 'false'} data-position={snapshot.position} data-length={snapshot.length} data-seeking={snapshot.seeking ? 'true' : 'false'}>
      <span>
        <FormattedMessage id="qa.controls.position" values={{ position: snapshot.position, length: snapshot.length }} />
      </span>
      <span>
        <FormattedMessage id="qa.controls.time" values={{ t: seconds(snapshot.t), duration: seconds(snapshot.duration) }} />
      </span>
      {snapshot.waitingFor && !snapshot.done && (
        <span className="muted">
          <FormattedMessage id="qa.controls.waiting" values={{ what: snapshot.waitingFor }} />
        </span>
      )}
      {dump && (
        <>
          <strong>
            <FormattedMessage id="qa.controls.done" />
          </strong>
          <output className="qa-final-dump" data-final-dump={JSON.stringify(dump)} data-last-frame-dump={JSON.stringify(snapshot.lastFrameDump)} hidden />
          <button type="button" className="button button-small" onClick={() => saveFile('replay-state.json', new Blob([JSON.stringify(dump, null, 1)], { type: 'application/json' }))}>
            <FormattedMessage id="qa.controls.downloadState" />
          </button>
        </>
      )}
    </div>
  );
}
