import { useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { saveFile } from '../components/csv.ts';
import { dumpTargetOf, sessionRecording, type SessionRecording } from './session-recording.ts';
import './qa.css';

/**
 * The header's recording control (any signed-in user), icon buttons to keep the header narrow: record,
 * stop, then download the session as a .jsonl file (fixtures/sessions format, tokens and personal data
 * redacted) or close. The live session's state at the stop rides along in `data-live-dump` for a
 * replay to be compared with.
 */
export function RecordSessionButton({ recording = sessionRecording }: { recording?: SessionRecording }) {
  const intl = useIntl();
  const state = useSyncExternalStore(recording.subscribe, recording.getSnapshot);
  if (state.status === 'recording') {
    return (
      <span className="record-session" data-recording="on">
        <button
          type="button"
          className="icon-button record-stop"
          aria-label={intl.formatMessage({ id: 'qa.record.stop' })}
          title={intl.formatMessage({ id: 'qa.record.recording' })}
          onClick={() => recording.stop()}
        >
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <rect x="6" y="6" width="12" height="12" rx="2" fill="currentColor" />
          </svg>
        </button>
      </span>
    );
  }
  if (state.status === 'stopped') {
    return (
      <span className="record-session" data-recording="stopped" data-live-dump={state.dump ? JSON.stringify(state.dump) : ''}>
        <button
          type="button"
          className="icon-button"
          aria-label={intl.formatMessage({ id: 'qa.record.download' })}
          title={intl.formatMessage({ id: 'qa.record.redacted' })}
          onClick={() => saveFile(state.fileName, new Blob([state.jsonl], { type: 'application/x-ndjson' }))}
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path d="M12 4v10m0 0-4-4m4 4 4-4M5 19h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" fill="none" />
          </svg>
        </button>
        <button type="button" className="icon-button" aria-label={intl.formatMessage({ id: 'qa.record.discard' })} title={intl.formatMessage({ id: 'qa.record.discard' })} onClick={() => recording.clear()}>
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <path d="m7 7 10 10M17 7 7 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
          </svg>
        </button>
      </span>
    );
  }
  return (
    <button
      type="button"
      className="icon-button record-start"
      aria-label={intl.formatMessage({ id: 'qa.record.start' })}
      title={intl.formatMessage({ id: 'qa.record.startTitle' })}
      onClick={() => recording.start(dumpTargetOf(window.location.pathname))}
    >
      <span className="record-dot" aria-hidden="true" />
    </button>
  );
}
