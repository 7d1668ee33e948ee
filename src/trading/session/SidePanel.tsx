import { useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';

function readOpen(key: string): boolean {
  try {
    return window.localStorage.getItem(key) !== 'closed';
  } catch {
    return true;
  }
}

/**
 * A collapsible side column of the asset view. Collapsed, its content unmounts (and with it its
 * subscriptions); the choice is kept per panel in localStorage.
 */
export function SidePanel({ id, side, title, children }: { id: string; side: 'left' | 'right'; title: string; children: ReactNode }) {
  const intl = useIntl();
  const key = `side-panel:${id}`;
  const [open, setOpen] = useState(() => readOpen(key));
  const toggle = () => {
    setOpen(!open);
    try {
      window.localStorage.setItem(key, open ? 'closed' : 'open');
    } catch {
      // private mode: the choice lasts for the page
    }
  };
  const arrow = (side === 'left') === open ? '‹' : '›';
  return (
    <aside className={`side-panel side-panel-${side}${open ? '' : ' side-panel-collapsed'}`} aria-labelledby={`${id}-title`} data-side-panel={id}>
      <div className="side-panel-header">
        <h2 id={`${id}-title`} className="side-panel-title">
          {title}
        </h2>
        <button
          type="button"
          className="icon-button side-panel-toggle"
          aria-expanded={open}
          aria-controls={open ? `${id}-body` : undefined}
          aria-label={intl.formatMessage({ id: open ? 'sessionPanels.side.hide' : 'sessionPanels.side.show' }, { panel: title })}
          title={intl.formatMessage({ id: open ? 'sessionPanels.side.hide' : 'sessionPanels.side.show' }, { panel: title })}
          onClick={toggle}
        >
          <span aria-hidden="true">{arrow}</span>
        </button>
      </div>
      {open && (
        <div id={`${id}-body`} className="side-panel-body">
          {children}
        </div>
      )}
    </aside>
  );
}
