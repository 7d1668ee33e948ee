/** The server's recorded sessions for the QA player: GET /qa/recordings and /qa/recordings/:name. */
import { recordingListSchema, type RecordingList } from '../../protocol/qa.ts';
import { authedDownload, authedRequest } from '../api/http.ts';

export function fetchRecordings(signal?: AbortSignal): Promise<RecordingList['recordings']> {
  return authedRequest('/qa/recordings', (body) => recordingListSchema.parse(body), signal ? { signal } : {}).then((list) => list.recordings);
}

export async function fetchRecording(name: string): Promise<string> {
  const file = await authedDownload(`/qa/recordings/${encodeURIComponent(name)}`, 'application/x-ndjson');
  return file.body.text();
}
