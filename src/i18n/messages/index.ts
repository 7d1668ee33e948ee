import type { Locale } from '../../../protocol/enums.ts';
import { en, type MessageKey } from './en.ts';
import { ro } from './ro.ts';

export type { MessageKey };
export const catalogues: Record<Locale, Record<MessageKey, string>> = { ro, en };

/** The messages of a locale, with English filling any gap (SPEC §9: fallback English). */
export function messagesFor(locale: Locale): Record<MessageKey, string> {
  return locale === 'en' ? en : { ...en, ...catalogues[locale] };
}

declare global {
  // Makes react-intl's `id` a MessageKey everywhere: a typo in a literal id fails `tsc`.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageKey;
    }
  }
}
