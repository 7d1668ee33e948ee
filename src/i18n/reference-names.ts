import { useCallback } from 'react';
import type { IntlShape } from 'react-intl';
import type { Locale } from '../../protocol/enums.ts';
import type { LocalNames } from '../../protocol/reference.ts';
import type { MessageKey } from './messages/index.ts';
import { referenceEn } from './messages/reference.ts';
import { appLocale } from './locale.ts';
import { useLocale } from './use-locale.ts';

/** The name of a market, ring or asset in `locale`; `name` (the name of record) if a name is missing. */
export function localName(entity: { name: string; names?: LocalNames | undefined }, locale: Locale): string {
  return entity.names?.[locale] || entity.name;
}

/** `localName` in the language of an intl object (outside components). */
export function localNameIn(intl: IntlShape, entity: { name: string; names?: LocalNames | undefined }): string {
  return localName(entity, appLocale(intl.locale));
}

/** Asset types the app has labels for; another code is shown as it is. */
export const assetTypes = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;

/** The message key of a known asset type ("day" -> 'reference.assetType.day'), or null for a code without a label. */
export function assetTypeLabelKey(type: string): MessageKey | null {
  const key = `reference.assetType.${type}`;
  return key in referenceEn ? (key as MessageKey) : null;
}

/** The label of an asset type in the intl's language, or the code itself when it has none. */
export function assetTypeLabel(intl: IntlShape, type: string): string {
  const key = assetTypeLabelKey(type);
  return key ? intl.formatMessage({ id: key }) : type;
}

/** `localName` in the active locale, for views. */
export function useLocalName(): (entity: { name: string; names?: LocalNames | undefined }) => string {
  const locale = useLocale();
  return useCallback((entity) => localName(entity, locale), [locale]);
}
