import type { Locale } from '../../../protocol/enums.ts';
import { apiDocsEn, apiDocsRo } from './api-docs.ts';
import { en as enMain } from './en.ts';
import { qaEn, qaRo } from './qa.ts';
import { referenceEn, referenceRo } from './reference.ts';
import { ro as roMain } from './ro.ts';

// Per-area modules registered here rather than in en.ts/ro.ts keep those two files out of every change.
const en = { ...enMain, ...referenceEn, ...apiDocsEn, ...qaEn };
const ro = { ...roMain, ...referenceRo, ...apiDocsRo, ...qaRo };
export type MessageKey = keyof typeof en;
export const catalogues: Record<Locale, Record<MessageKey, string>> = { ro, en };

/** The messages of a locale, with English filling any gap (SPEC §9: fallback English). */
export function messagesFor(locale: Locale): Record<MessageKey, string> {
  return locale === 'en' ? en : { ...en, ...catalogues[locale] };
}

declare global {
  // Makes react-intl's `id` a MessageKey everywhere: a typo in a literal id fails `tsc`.
  // eslint-disable-next-line @typescript-eslint/no-namespace -- augments react-intl's global FormatjsIntl namespace: only a namespace merges with it
  namespace FormatjsIntl {
    interface Message {
      ids: MessageKey;
    }
  }
}
