import type { ReactNode } from 'react';

/** Term/value rows (profile, asset specification, statistics) in the app's description-list style. */
export function DescriptionList({ rows, wide = true, valueClassName }: { rows: ReadonlyArray<readonly [string, ReactNode]>; wide?: boolean; valueClassName?: string }) {
  return (
    <dl className={wide ? 'description-list description-list-wide' : 'description-list'}>
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd className={valueClassName}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
