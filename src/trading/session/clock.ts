/**
 * One clock for every countdown: a shared timer on whole seconds, so a page of countdowns wakes once
 * a second together and only the countdowns themselves re-render.
 */
import { defer, map, share, startWith, timer, type Observable } from 'rxjs';

const ticks$ = defer(() => timer(1000 - (Date.now() % 1000), 1000)).pipe(
  map(() => Date.now()),
  share(),
);

/** The current time (ms) at once, then on every whole second while subscribed. */
export const clock$: Observable<number> = defer(() => ticks$.pipe(startWith(Date.now())));

/** Time left as mm:ss, or hh:mm:ss from one hour up; whole seconds rounded up, 00:00 when over. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${two(hours)}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}
