import {
  assetActivityTypes,
  commodities,
  contractStatuses,
  executionTypes,
  legacyOrderStatusMap,
  locales,
  marginExposureStatuses,
  marketKinds,
  orderStatuses,
  otcActions,
  otcStatuses,
  roles,
  sessionPhases,
  themes,
  transferActions,
  transferOutcomes,
  validityTypes,
  ways,
  whitelistRelationStatuses,
  whitelistRequestStatuses,
  whitelistRequestTypes,
  workspaceTypes,
  type LegacyOrderStatus,
  type OrderStatus,
} from '../../protocol/enums.ts';
import type { MessageKey } from './messages/en.ts';

/**
 * Where the label of each status/type of protocol/enums.ts lives: `<prefix><value>`.
 * Labels are looked up dynamically, so the message tests use this table (and check that it covers
 * every tuple exported by protocol/enums.ts).
 */
export const enumLabelGroups = {
  orderStatus: { prefix: 'status.order.', values: orderStatuses },
  way: { prefix: 'way.', values: ways },
  validityType: { prefix: 'validity.', values: validityTypes },
  executionType: { prefix: 'execution.', values: executionTypes },
  assetActivity: { prefix: 'activity.', values: assetActivityTypes },
  sessionPhase: { prefix: 'phase.', values: sessionPhases },
  contractStatus: { prefix: 'contract.status.', values: contractStatuses },
  otcStatus: { prefix: 'otc.status.', values: otcStatuses },
  otcAction: { prefix: 'otc.action.', values: otcActions },
  transferAction: { prefix: 'transfer.action.', values: transferActions },
  transferOutcome: { prefix: 'transfer.outcome.', values: transferOutcomes },
  marginExposureStatus: { prefix: 'margin.status.', values: marginExposureStatuses },
  whitelistRequestType: { prefix: 'whitelist.requestType.', values: whitelistRequestTypes },
  whitelistRequestStatus: { prefix: 'whitelist.requestStatus.', values: whitelistRequestStatuses },
  whitelistRelationStatus: { prefix: 'whitelist.relationStatus.', values: whitelistRelationStatuses },
  workspaceType: { prefix: 'workspace.type.', values: workspaceTypes },
  theme: { prefix: 'theme.', values: themes },
  locale: { prefix: 'locale.', values: locales },
  role: { prefix: 'role.', values: roles },
  commodity: { prefix: 'commodity.', values: commodities },
  marketKind: { prefix: 'market.kind.', values: marketKinds },
} as const;

export type EnumLabelGroup = keyof typeof enumLabelGroups;
type Group<G extends EnumLabelGroup> = (typeof enumLabelGroups)[G];
type ValueOf<G extends EnumLabelGroup> = Group<G>['values'][number];
type KeyOf<G extends EnumLabelGroup> = `${Group<G>['prefix']}${ValueOf<G>}`;

// Compile-time check: every label key derived from the table is a message key.
type AllLabelKeys = { [G in EnumLabelGroup]: KeyOf<G> }[EnumLabelGroup];
const labelKeysExist: AllLabelKeys extends MessageKey ? true : never = true;
void labelKeysExist;

/** The message key of an enum value, e.g. `enumLabelKey('otcStatus', 'rejected')` -> 'otc.status.rejected'. */
export function enumLabelKey<G extends EnumLabelGroup>(group: G, value: ValueOf<G>): MessageKey {
  return `${enumLabelGroups[group].prefix}${value}` as MessageKey;
}

/** Feeds may still send the older order status set; it is labelled through the current one. */
export function orderStatusLabelKey(status: OrderStatus | LegacyOrderStatus): MessageKey {
  const current = (orderStatuses as readonly string[]).includes(status)
    ? (status as OrderStatus)
    : legacyOrderStatusMap[status as LegacyOrderStatus];
  return enumLabelKey('orderStatus', current);
}
