import { useEffect, useState } from 'react';
import { distinctUntilChanged, map, type Observable } from 'rxjs';
import { clock$, formatCountdown } from './clock.ts';

/**
 * Time left until `until` (ISO or ms), mm:ss or hh:mm:ss. It holds its own state fed by the shared
 * clock, so each second re-renders this text alone, never the widget or the page around it.
 */
export function Countdown({ until, clock = clock$ }: { until: string | number; clock?: Observable<number> }) {
  const end = typeof until === 'number' ? until : Date.parse(until);
  const [text, setText] = useState(() => formatCountdown(end - Date.now()));
  useEffect(() => {
    const subscription = clock.pipe(map((now) => formatCountdown(end - now)), distinctUntilChanged()).subscribe(setText);
    return () => subscription.unsubscribe();
  }, [end, clock]);
  // role timer: assistive technology does not announce every second.
  return (
    <span className="countdown mono" role="timer">
      {text}
    </span>
  );
}
