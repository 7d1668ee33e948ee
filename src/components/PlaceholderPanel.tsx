import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

/** A section whose screen arrives with its own feature: says so plainly instead of showing nothing. */
export function PlaceholderPanel({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <section className="card placeholder-panel" aria-labelledby="placeholder-title">
      <h2 id="placeholder-title">{title}</h2>
      <div className="placeholder-body">
        <span className="placeholder-icon" aria-hidden="true">
          ◇
        </span>
        <p className="muted">
          <FormattedMessage id="placeholder.comingWithIssue" />
        </p>
        {children}
      </div>
    </section>
  );
}
