import { useSyncExternalStore } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { saveFile } from '../components/csv.ts';
import { dumpTargetOf, sessionRecording, type SessionRecording } from './session-recording.ts';
import './qa.css';

/**
 * The header's recording control (any signed-in user): start, stop, then download the session as a
 * .jsonl file (fixtures/sessions format, tokens and personal data redacted). The live session's state
 * at the stop rides along in `data-live-dump` for a replay to be compared with.
 */
export function RecordSessionButton({ recording = sessionRecording }: { recording?: SessionRecording }) {
  const intl = useIntl();
  const state = useSyncExternalStore(recording.subscribe, recording.getSnapshot);
  if (state.status === 'recording') {
    return (
      <span className="record-session" data-recording="on">
        <span className="record-dot" aria-hidden="true" />
        <span className="small">
          <FormattedMessage id="qa.record.recording" />
        </span>
        <button type="button" className="button button-small" onClick={() => recording.stop()}>
          <FormattedMessage id="qa.record.stop" />
        </button>
      </span>
    );
  }
  if (state.status === 'stopped') {
    return (
      <span className="record-session" data-recording="stopped" data-live-dump={state.dump ? JSON.stringify(state.dump) : ''} title={intl.formatMessage({ id: 'qa.record.redacted' })}>
        <button type="button" className="button button-small button-primary" onClick={() => saveFile(state.fileName, new Blob([state.jsonl], { type: 'application/x-ndjson' }))}>
          <FormattedMessage id="qa.record.download" />
        </button>
        <button type="button" className="button button-small button-ghost" onClick={() => recording.clear()}>
          <FormattedMessage id="qa.record.discard" />
        </button>
      </span>
    );
  }
  return (
    <button
      type="button"
      className="button button-small button-ghost record-session"
      title={intl.formatMessage({ id: 'qa.record.startTitle' })}
      onClick={() => recording.start(dumpTargetOf(window.location.pathname))}
    >
      <span className="record-dot" aria-hidden="true" />
      <FormattedMessage id="qa.record.start" />
    </button>
  );
}
