/** The operator console's live snapshot from the app's one connection (streams/operator.ts); null until the first arrives. */
import { useEffect, useState } from 'react';
import type { OperatorSnapshot } from '../../protocol/operator.ts';
import { operator$ } from '../../streams/operator.ts';
import { useRealtime } from '../realtime/RealtimeProvider.tsx';

export function useOperatorSnapshot(): OperatorSnapshot | null {
  const connection = useRealtime()?.connection ?? null;
  const [snapshot, setSnapshot] = useState<OperatorSnapshot | null>(null);
  useEffect(() => {
    if (!connection) return;
    const subscription = operator$(connection).subscribe(setSnapshot);
    return () => subscription.unsubscribe();
  }, [connection]);
  return snapshot;
}
