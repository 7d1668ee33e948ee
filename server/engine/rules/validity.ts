/**
 * Validity: the type (day, GTC, GTD, GTSV) and, for GTD and GTSV, an expiry instant after the
 * command's time. Which types an asset allows is the simple competitive rule's (simple-competitive.ts).
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { validityTypes, type ValidityType } from '../../../protocol/enums.ts';
import { iso, refuse, type Refusal } from '../refusal.ts';

const validityTypeSet: ReadonlySet<string> = new Set(validityTypes);

/** Fast path: one of the four types. */
export function isValidityType(v: unknown): v is ValidityType {
  return v === 'day' || v === 'GTC' || v === 'GTD' || v === 'GTSV';
}

/** GTD and GTSV carry their expiry instant. */
export function hasExpiry(validityType: ValidityType): boolean {
  return validityType === 'GTD' || validityType === 'GTSV';
}

/** A new order's validity type that is not one of the four: missing or invalid. */
export function newValidityTypeRefusal(validityType: unknown): Refusal | null {
  if (!validityType) return refuse(apiError('ORDER_VALIDITY_TYPE_MISSING'));
  return validityTypeRefusal(validityType);
}

/** A validity type (as a modify leaves it) that is not one of the four. */
export function validityTypeRefusal(validityType: unknown): Refusal | null {
  if (typeof validityType === 'string' && validityTypeSet.has(validityType)) return null;
  return refuse(apiError('ORDER_VALIDITY_TYPE_INVALID', { validityType: String(validityType) }));
}

/** The expiry instant of a GTD / GTSV order: present, a number, after `at`. */
export function expiryRefusal(validity: unknown, at: number): Refusal | null {
  if (validity === undefined || validity === null) return refuse(apiError('ORDER_VALIDITY_TIMESTAMP_MISSING'));
  if (typeof validity !== 'number' || !Number.isFinite(validity)) return refuse(apiError('REQUEST_INVALID', { field: 'validity', issue: 'notANumber' }));
  if (validity <= at) return refuse(apiError('ORDER_VALIDITY_IN_PAST', { validity: iso(validity) }));
  return null;
}
