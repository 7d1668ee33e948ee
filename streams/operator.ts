/**
 * The operator console's live picture (issue 16) over the one STOMP connection: a full snapshot on
 * subscribe to /user/queue/operator, then a new one whenever a phase, participant or clearing status
 * changes and every OPERATOR_HEALTH_INTERVAL_MS for the health figures (administrators only; others
 * receive nothing on it). Payloads are checked with the contract's schema; one that fails is reported
 * on `errors$` and dropped (streams/connection.ts). No polling: the server pushes.
 */
import { shareReplay, type Observable } from 'rxjs';
import { destinations } from '../protocol/destinations.ts';
import { operatorSnapshotSchema, type OperatorSnapshot } from '../protocol/operator.ts';
import type { Connection } from './connection.ts';

// One STOMP subscription per connection however many panels show it (as streams/session.ts shares its streams).
const shared = new WeakMap<Connection, Observable<OperatorSnapshot>>();

/**
 * The latest operator snapshot, shared: subscribed while someone watches, restored after every
 * reconnect (the server answers a new subscription with a full snapshot), the last one replayed to a
 * panel opened later.
 */
export function operator$(connection: Connection): Observable<OperatorSnapshot> {
  let stream = shared.get(connection);
  if (!stream) {
    stream = connection.watch$(destinations.operator, operatorSnapshotSchema).pipe(shareReplay({ bufferSize: 1, refCount: true }));
    shared.set(connection, stream);
  }
  return stream;
}
