import { Link, useLocation } from '@tanstack/react-router';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MenuIcon } from '../components/icons.tsx';
import { localePath } from '../i18n/locale.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { linksThatFit } from './nav-fold.ts';

export interface NavItem {
  path: string;
  label: MessageKey;
  exact?: boolean;
}

/**
 * The header's main navigation. Every link stays whole: the ones that do not fit beside the tools fold,
 * from the end, into a "more" menu (a disclosure listing them). Folded links stay in the bar, unseen and
 * out of the accessibility tree, so their widths can be measured when the header grows again.
 */
export function MainNav({ items }: { items: readonly NavItem[] }) {
  const intl = useIntl();
  const locale = useLocale();
  const pathname = useLocation({ select: (location) => location.pathname });
  const navRef = useRef<HTMLElement>(null);
  const listId = useId();
  const [fit, setFit] = useState(items.length);
  const [open, setOpen] = useState(false);

  useLayoutEffect(() => {
    const nav = navRef.current;
    if (!nav) return;
    const measure = () => {
      const links = [...nav.querySelectorAll<HTMLElement>('[data-nav-link]')];
      const more = nav.querySelector<HTMLElement>('.nav-more-button');
      const gap = Number.parseFloat(getComputedStyle(nav).columnGap) || 0;
      setFit(
        linksThatFit(
          links.map((link) => link.getBoundingClientRect().width),
          nav.clientWidth,
          gap,
          more?.getBoundingClientRect().width ?? 0,
        ),
      );
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return; // jsdom: nothing is laid out, every link stays
    // The nav's width comes from the header (flex: 1), never from its links, so this cannot loop.
    const observer = new ResizeObserver(measure);
    observer.observe(nav);
    nav.querySelectorAll('[data-nav-link]').forEach((link) => observer.observe(link));
    return () => observer.disconnect();
  }, [items, locale]);

  // A page change or a wider header closes the menu.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- closing is what a page change does to the menu
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- once every link fits, the menu closes and stays closed
    if (fit >= items.length) setOpen(false);
  }, [fit, items.length]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        navRef.current?.querySelector<HTMLElement>('.nav-more-button')?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!navRef.current?.querySelector('.nav-more')?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const folded = items.slice(fit);
  const link = (item: NavItem, className: string, extra: Record<string, unknown> = {}) => (
    <Link
      key={item.path}
      to={localePath(locale, item.path)}
      className={className}
      activeProps={{ className: `${className} active`, 'aria-current': 'page' }}
      activeOptions={{ exact: item.exact ?? false, includeSearch: false }}
      {...extra}
    >
      <FormattedMessage id={item.label} />
    </Link>
  );
  const moreLabel = intl.formatMessage({ id: 'nav.more' });
  return (
    <nav ref={navRef} className="main-nav" aria-label={intl.formatMessage({ id: 'nav.main' })}>
      {items.map((item, index) =>
        link(item, index < fit ? 'main-nav-link' : 'main-nav-link main-nav-link-folded', {
          'data-nav-link': '',
          ...(index < fit ? {} : { 'aria-hidden': true, tabIndex: -1 }),
        }),
      )}
      <div className={folded.length > 0 ? 'nav-more' : 'nav-more nav-more-unused'}>
        <button
          type="button"
          className="icon-button nav-more-button"
          aria-label={moreLabel}
          title={moreLabel}
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          tabIndex={folded.length > 0 ? undefined : -1}
          aria-hidden={folded.length > 0 ? undefined : true}
          onClick={() => setOpen(!open)}
        >
          <MenuIcon />
        </button>
        {open && folded.length > 0 && (
          <ul id={listId} className="nav-more-list">
            {folded.map((item) => (
              <li key={item.path}>{link(item, 'nav-more-link', { onClick: () => setOpen(false) })}</li>
            ))}
          </ul>
        )}
      </div>
    </nav>
  );
}
