// First: zod jitless before any module builds a schema (content-security.ts).
import './app/content-security.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createAppRouter } from './app/router.tsx';
import { preferredLocaleRedirect, readLocaleCookie } from './i18n/locale.ts';
import { applyStoredTheme } from './theme/theme.ts';
import './styles.css';

applyStoredTheme();

// The bare root opens in the remembered language (SPEC §1: the locale cookie is honoured next visit).
const target = preferredLocaleRedirect(window.location.pathname, readLocaleCookie());
if (target) window.history.replaceState(null, '', `${target}${window.location.search}${window.location.hash}`);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App router={createAppRouter()} />
  </StrictMode>,
);
