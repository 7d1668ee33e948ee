/**
 * The one result-code vocabulary, from engine to wire to UI.
 * Each code has an HTTP status and the names of its parameters; the client turns code + params
 * into a Romanian or English message (src/i18n). Codes are stable: never rename one, add a new one.
 */
export const errorCatalogue = {
  // Generic and framework-level
  UNKNOWN_ERROR: { status: 500, params: [] },
  REQUEST_MALFORMED_JSON: { status: 400, params: [] },
  REQUEST_INVALID: { status: 400, params: ['field', 'issue'] },
  REQUEST_BODY_TOO_LARGE: { status: 413, params: ['limitBytes'] },
  REQUEST_UNSUPPORTED_MEDIA_TYPE: { status: 415, params: ['contentType'] },
  REQUEST_TIMEOUT: { status: 408, params: ['timeoutMs'] },
  NOT_FOUND: { status: 404, params: ['path'] },
  FORBIDDEN: { status: 403, params: ['scope'] },
  SERVICE_UNAVAILABLE: { status: 503, params: [] },

  // Authentication
  AUTH_PASSWORD_EXPIRED: { status: 403, params: [] },
  AUTH_CODE_MISSING: { status: 400, params: [] },
  AUTH_CODE_INVALID: { status: 401, params: [] },
  AUTH_CODE_ALREADY_USED: { status: 401, params: [] },
  AUTH_CREDENTIALS_INVALID: { status: 401, params: [] },
  AUTH_PASSWORD_USED_BEFORE: { status: 422, params: [] },
  AUTH_PASSWORD_INVALID: { status: 422, params: ['minLength'] },
  AUTH_PASSWORDS_NOT_MATCHING: { status: 422, params: [] },
  AUTH_PASSWORD_NOT_EXPIRED: { status: 409, params: [] },
  AUTH_TOKEN_MISSING: { status: 401, params: [] },
  AUTH_TOKEN_EXPIRED: { status: 401, params: [] },
  AUTH_TOKEN_INVALID: { status: 401, params: [] },
  AUTH_TOO_MANY_ATTEMPTS: { status: 429, params: ['retryAfterSeconds'] },
  /** The token was issued before the user's password changed (or was reset). */
  AUTH_TOKEN_REVOKED: { status: 401, params: [] },
  /** Every password-hashing worker is busy and its queue full: sign-in waits, orders do not. */
  AUTH_BUSY: { status: 503, params: ['retryAfterSeconds'] },

  // Orders: missing fields
  ORDER_ASSET_ID_MISSING: { status: 400, params: [] },
  ORDER_VALIDITY_TYPE_MISSING: { status: 400, params: [] },
  ORDER_VALIDITY_TIMESTAMP_MISSING: { status: 400, params: [] },
  ORDER_QUANTITY_MISSING: { status: 400, params: [] },
  ORDER_CONTRACT_COUNT_MISSING: { status: 400, params: [] },
  ORDER_PRICE_MISSING: { status: 400, params: [] },
  ORDER_DIRECTION_MISSING: { status: 400, params: [] },
  ORDER_CLIENT_CODE_MISSING: { status: 400, params: [] },
  // Orders: invalid references and rights
  ORDER_ASSET_ID_INVALID: { status: 422, params: ['assetId'] },
  ORDER_DIRECTION_INVALID: { status: 422, params: ['way'] },
  ORDER_VALIDITY_TYPE_INVALID: { status: 422, params: ['validityType'] },
  ORDER_CLIENT_CODE_INVALID: { status: 422, params: ['clientCode'] },
  ORDER_CLIENT_NOT_ACTIVE: { status: 422, params: ['clientCode'] },
  ORDER_INITIATOR_EXISTS: { status: 422, params: ['orderId'] },
  ORDER_AGENCY_CLIENT_FORBIDDEN: { status: 403, params: ['clientCode'] },
  ORDER_NO_RIGHT: { status: 403, params: ['clientCode', 'assetId', 'way'] },
  ORDER_NOT_FOUND: { status: 404, params: ['orderId'] },
  ORDER_STATE_INVALID: { status: 409, params: ['orderId', 'status'] },
  // Orders: quantity and price
  ORDER_QUANTITY_TOO_LARGE: { status: 422, params: ['max', 'unit'] },
  ORDER_QUANTITY_STEP: { status: 422, params: ['step', 'unit'] },
  ORDER_PRICE_STEP: { status: 422, params: ['step', 'currency'] },
  ORDER_PRICE_OUTSIDE_LIMITS: { status: 422, params: ['min', 'max', 'currency'] },
  ORDER_PRICE_NEGATIVE: { status: 422, params: [] },
  ORDER_PRICE_ZERO: { status: 422, params: [] },
  ORDER_PRICE_TOO_MANY_DIGITS: { status: 422, params: ['maxDigits'] },
  ORDER_QUANTITY_BELOW_MINIMUM: { status: 422, params: ['min', 'unit'] },
  ORDER_QUANTITY_INVALID: { status: 422, params: ['step', 'min', 'max', 'unit'] },
  ORDER_VALIDITY_IN_PAST: { status: 422, params: ['validity'] },
  /** A validity instant sent with a type that has none (day, GTC): refused rather than ignored. */
  ORDER_VALIDITY_NOT_EXPECTED: { status: 422, params: ['validityType'] },
  /** A GTD/GTSV instant beyond the furthest an order may live (`max`, a date). */
  ORDER_VALIDITY_TOO_FAR: { status: 422, params: ['max'] },
  /** noCnt and qty both sent and not the same quantity (`expected` contracts for the qty). */
  ORDER_CONTRACTS_MISMATCH: { status: 422, params: ['noCnt', 'expected'] },
  /** An idempotency key already used by this user for a different order. */
  ORDER_IDEMPOTENCY_KEY_REUSED: { status: 422, params: ['idempotencyKey'] },
  ORDER_SESSION_MIN_PRICE: { status: 422, params: ['bound', 'currency'] },
  ORDER_SESSION_MAX_PRICE: { status: 422, params: ['bound', 'currency'] },
  ORDER_REGULATOR_MAX_PRICE: { status: 422, params: ['bound', 'currency'] },
  // Orders: per-asset configuration
  ORDER_PRICE_CANNOT_WORSEN: { status: 422, params: ['previous'] },
  ORDER_QUANTITY_CANNOT_DECREASE: { status: 422, params: ['previous'] },
  ORDER_PRICE_NOT_CHANGEABLE: { status: 422, params: [] },
  ORDER_ATTRIBUTES_NOT_CHANGEABLE: { status: 422, params: [] },
  ORDER_NOT_CANCELLABLE: { status: 422, params: [] },
  // Orders: cross and delta T
  ORDER_CROSS: { status: 422, params: ['orderId'] },
  ORDER_CROSS_BID: { status: 422, params: ['orderId'] },
  ORDER_DELTA_T_LOCKED: { status: 422, params: ['endsAt'] },
  ORDER_DELTA_T_PRICE_STEP: { status: 422, params: ['step', 'currency'] },
  // Orders: participant restrictions
  ORDER_GAS_RELEASE_FORBIDDEN: { status: 403, params: ['clientCode', 'assetId'] },
  ORDER_IMBALANCE_BID_ONLY: { status: 422, params: ['quantity'] },
  ORDER_IMBALANCE_ASK_ONLY: { status: 422, params: ['quantity'] },
  ORDER_IMBALANCE_QUANTITY_LIMIT: { status: 422, params: ['limit'] },
  ORDER_TRADEABLE_QUANTITY_INSUFFICIENT: { status: 422, params: ['excess', 'limit'] },
  ORDER_CLIENT_RESTRICTED_ASK: { status: 403, params: ['clientCode'] },
  ORDER_BALANCING_GROUP_NO_CANCEL: { status: 422, params: [] },
  ORDER_BALANCING_GROUP_ONLY_IMPROVE: { status: 422, params: [] },
  ORDER_BALANCING_GROUP_DECREASE_CAP: { status: 422, params: ['maxDecrease'] },
  ORDER_SIDE_RESTRICTED: { status: 403, params: ['way'] },
  ORDER_TRANSMISSION_SIDE_RESTRICTED: { status: 403, params: ['way'] },
  ORDER_NOT_TRANSMISSION_PARTNER: { status: 403, params: ['clientCode'] },
  ORDER_INSUFFICIENT_FUNDS: { status: 422, params: ['amountToDeposit', 'currency'] },
  ORDER_SIMPLE_COMPETITIVE_GTC_ONLY: { status: 422, params: [] },
  ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE: { status: 422, params: ['way'] },
  ORDER_INITIATOR_QUANTITY_LOCKED: { status: 422, params: [] },
  ORDER_INITIATOR_NO_NEW_ORDER: { status: 422, params: [] },
  ORDER_TRADING_DEACTIVATED: { status: 422, params: ['assetId'] },
  ORDER_FOK_NOT_FILLED: { status: 422, params: [] },
  ORDER_IOC_NOT_FILLED: { status: 422, params: [] },

  // Session
  SESSION_PHASE_FORBIDS: { status: 409, params: ['phase'] },
  SESSION_CLOSING_NO_PRICE_CHANGE: { status: 409, params: [] },
  SESSION_SUSPENDED: { status: 409, params: [] },

  // Clearing
  CLEARING_FINANCIAL_LIMIT: { status: 422, params: ['limit', 'exposure'] },
  CLEARING_CLIENT_NOT_ALLOWED: { status: 403, params: ['clientCode', 'assetId'] },
  CLEARING_CLIENT_NOT_ACTIVE: { status: 403, params: ['clientCode'] },
  CLEARING_MAX_CONTRACTS: { status: 422, params: ['max'] },
  // Clearing house (issue 14)
  CLEARING_CLIENT_NOT_FOUND: { status: 404, params: ['clientCode'] },
  CLEARING_DATE_RANGE_INVALID: { status: 422, params: ['from', 'to'] },
  CLEARING_WARRANTY_NOT_FOUND: { status: 404, params: ['clientWarrantyId'] },
  CLEARING_WARRANTY_DATES_INVALID: { status: 422, params: ['depositDate', 'validityDate'] },
  CLEARING_WARRANTY_DUPLICATE: { status: 409, params: ['warrantyNumber'] },
  CLEARING_WARRANTY_RELEASED: { status: 409, params: ['clientWarrantyId'] },
  CLEARING_WARRANTY_CURRENCY: { status: 422, params: ['currency', 'expected'] },
  CLEARING_SETTLEMENT_PRICE_NOT_FOUND: { status: 404, params: ['dailySettlementPriceId'] },
  CLEARING_SESSION_NOT_CLOSED: { status: 409, params: ['marketId', 'sessionDate'] },
  CLEARING_SETTLEMENT_RUN_IN_PROGRESS: { status: 409, params: ['marketId', 'sessionDate'] },
  CLEARING_OBLIGATION_NOT_FOUND: { status: 404, params: ['obligationId'] },
  CLEARING_OBLIGATION_ALREADY_SETTLED: { status: 409, params: ['obligationId', 'status'] },
  CLEARING_NOTE_NOT_FOUND: { status: 404, params: ['noteId'] },
  CLEARING_REPORT_NOT_FOUND: { status: 404, params: ['reportId'] },
  CLEARING_NOMINATION_NOT_FOUND: { status: 404, params: ['nominationId'] },
  CLEARING_NOMINATION_LOCKED: { status: 409, params: ['deadline'] },
  CLEARING_NOMINATION_QUANTITY: { status: 422, params: ['max', 'unit'] },

  // Whitelist
  WHITELIST_PENDING_EXISTS: { status: 409, params: ['partner'] },
  WHITELIST_PARTNER_EXISTS: { status: 409, params: ['partner'] },
  WHITELIST_NOT_PARTNER: { status: 409, params: ['partner'] },
  WHITELIST_SAME_AS_LATEST: { status: 409, params: ['partner'] },

  // Transfer (each carries the transaction id)
  TRANSFER_GAS_RELEASE: { status: 422, params: ['transactionId'] },
  TRANSFER_ASSET_NOT_IN_MARKET: { status: 422, params: ['transactionId'] },
  TRANSFER_BUYER_NOT_FOUND: { status: 422, params: ['transactionId'] },
  TRANSFER_SELLER_NOT_FOUND: { status: 422, params: ['transactionId'] },
  TRANSFER_BUYER_NOT_ACTIVE: { status: 422, params: ['transactionId'] },
  TRANSFER_SELLER_NOT_ACTIVE: { status: 422, params: ['transactionId'] },
  TRANSFER_NO_SESSION: { status: 422, params: ['transactionId', 'date'] },
  TRANSFER_NO_BUY_AGENCY_BROKER: { status: 422, params: ['transactionId'] },
  TRANSFER_NO_SELL_AGENCY_BROKER: { status: 422, params: ['transactionId'] },
  TRANSFER_INITIATOR_NOT_ACTIVE: { status: 422, params: ['transactionId'] },
  TRANSFER_PARTNER_NOT_ACTIVE: { status: 422, params: ['transactionId'] },
  TRANSFER_INITIATOR_INSUFFICIENT_FUNDS: { status: 422, params: ['transactionId'] },
  TRANSFER_PARTNER_INSUFFICIENT_FUNDS: { status: 422, params: ['transactionId'] },
  TRANSFER_LIMIT_DATE_EXCEEDED: { status: 422, params: ['transactionId'] },
  TRANSFER_NOT_PARTICIPANT: { status: 403, params: ['transactionId'] },
  /** The engine's post-trade commands (registerOffBookTrade, novateTransaction, setTransactionMarginsExposure). */
  TRANSACTION_NOT_FOUND: { status: 404, params: ['transactionId'] },
  TRANSACTION_SAME_PARTY: { status: 422, params: ['clientCode'] },
  TRANSFER_ALREADY_DONE: { status: 409, params: ['transactionId'] },
  TRANSFER_QTY_INVALID: { status: 422, params: ['transactionId', 'max'] },
  /** A whitelist (bilateral) query on an asset that is not whitelist-restricted. */
  ASSET_NOT_BILATERAL: { status: 422, params: ['assetId'] },
  ASSET_NOT_FOUND: { status: 404, params: ['assetId'] },

  // OTC rejection reasons
  OTC_INITIATOR_NOT_ACTIVE: { status: 422, params: [] },
  OTC_PARTNER_NOT_ACTIVE: { status: 422, params: [] },
  OTC_INITIATOR_INSUFFICIENT_FUNDS: { status: 422, params: [] },
  OTC_PARTNER_INSUFFICIENT_FUNDS: { status: 422, params: [] },
  OTC_PRICE_VARIATION: { status: 422, params: ['maxPercent', 'settlementPrice'] },
  OTC_LIMIT_DATE_EXCEEDED: { status: 422, params: [] },

  // Workflows (issue 15): every workflow instance
  WORKFLOW_NOT_FOUND: { status: 404, params: ['instanceId'] },
  /** The machine does not offer this action in this state to this user. */
  WORKFLOW_ACTION_NOT_ALLOWED: { status: 409, params: ['action', 'status'] },
  /** Someone else changed the instance first (a concurrent approval): reload and decide again. */
  WORKFLOW_CONFLICT: { status: 409, params: ['instanceId', 'version'] },
  WORKFLOW_REASON_REQUIRED: { status: 422, params: ['action'] },
  WORKFLOW_IDEMPOTENCY_KEY_REUSED: { status: 422, params: [] },
  OTC_DELIVERY_DATES_INVALID: { status: 422, params: ['firstDeliveryDate', 'lastDeliveryDate'] },
  OTC_SAME_CLIENT: { status: 422, params: ['clientCode'] },
  OTC_ASSET_NOT_ALLOWED: { status: 422, params: ['assetId'] },
  TRANSFER_IN_PROGRESS: { status: 409, params: ['transactionId'] },
  MARGIN_EXPOSURE_ALREADY_ACTIVE: { status: 409, params: ['transactionId'] },
  WHITELIST_SELF: { status: 422, params: ['partner'] },
  CONTRACT_TOO_LARGE: { status: 413, params: ['limitBytes'] },
  CONTRACT_NOT_MULTIPART: { status: 415, params: ['contentType'] },

  // Operator console, participants, API reads, QA replay (issue 16)
  /** The participant (a client code or a broker) is suspended by the operator: no new orders until reinstated. */
  PARTICIPANT_SUSPENDED: { status: 403, params: ['participant'] },
  PARTICIPANT_NOT_FOUND: { status: 404, params: ['participant'] },
  PARTICIPANT_ALREADY_SUSPENDED: { status: 409, params: ['participant'] },
  PARTICIPANT_NOT_SUSPENDED: { status: 409, params: ['participant'] },
  /** A market suspend or resume that does not apply in the market's phase. */
  MARKET_PHASE_CHANGE_NOT_ALLOWED: { status: 409, params: ['marketId', 'phase'] },
  /** A read asked for `minSeq` and the read model did not reach it within the wait: it stands at `atSeq`. */
  READ_NOT_CAUGHT_UP: { status: 503, params: ['minSeq', 'atSeq'] },
  /** An uploaded recording is not a session recording: the line and what is wrong with it. */
  RECORDING_INVALID: { status: 422, params: ['line', 'issue'] },

  // Workspaces
  WORKSPACE_DELETE_FAILED: { status: 500, params: [] },
  WORKSPACE_SAVE_FAILED: { status: 500, params: [] },
  WORKSPACE_EDIT_FAILED: { status: 500, params: [] },
  WORKSPACE_LOAD_FAILED: { status: 500, params: [] },
  /** A body the workspace rules refuse: the field at fault (marketId, assetIds, ringIds), or body. */
  WORKSPACE_INVALID: { status: 400, params: ['field'] },
  /** No workspace of this user has the id (another user's is answered the same). */
  WORKSPACE_NOT_FOUND: { status: 404, params: [] },

  // Contract upload
  CONTRACT_UNKNOWN_ERROR: { status: 500, params: [] },
  CONTRACT_EXISTS: { status: 409, params: ['transactionId'] },
  CONTRACT_TRANSACTION_NOT_FOUND: { status: 404, params: ['transactionId'] },
  CONTRACT_NOT_PARTICIPANT: { status: 403, params: ['transactionId'] },
  CONTRACT_INVALID_FILE_NAME: { status: 422, params: ['fileName'] },
  CONTRACT_NOT_PDF: { status: 415, params: ['fileName'] },

  // Chat
  CHAT_RECIPIENT_UNKNOWN: { status: 404, params: ['recipient'] },
  CHAT_MESSAGE_INVALID: { status: 422, params: ['maxLength'] },
  CHAT_RATE_LIMITED: { status: 429, params: ['retryAfterSeconds'] },

  // Orders: history and account views
  ACCOUNT_CLIENT_FORBIDDEN: { status: 403, params: ['clientCode'] },
  ACCOUNT_MARKET_INVALID: { status: 422, params: ['marketId'] },

  // STOMP channel (sent in ERROR frames as the `code` header and in the body)
  STOMP_FRAME_MALFORMED: { status: 400, params: [] },
  STOMP_FRAME_TOO_LARGE: { status: 413, params: ['limitBytes'] },
  STOMP_TOO_MANY_HEADERS: { status: 400, params: ['limit'] },
  STOMP_NOT_CONNECTED: { status: 401, params: [] },
  STOMP_CONNECT_TIMEOUT: { status: 408, params: ['timeoutMs'] },
  STOMP_HEARTBEAT_TIMEOUT: { status: 408, params: ['timeoutMs'] },
  STOMP_DESTINATION_UNKNOWN: { status: 404, params: ['destination'] },
  STOMP_DESTINATION_FORBIDDEN: { status: 403, params: ['destination'] },
  STOMP_SUBSCRIPTION_DUPLICATE: { status: 409, params: ['id'] },
  STOMP_SUBSCRIPTION_UNKNOWN: { status: 404, params: ['id'] },
  STOMP_SLOW_CONSUMER: { status: 503, params: ['limitBytes'] },
  STOMP_VERSION_UNSUPPORTED: { status: 400, params: ['supported'] },
  STOMP_TOO_MANY_SUBSCRIPTIONS: { status: 429, params: ['limit'] },
  STOMP_TOO_MANY_CONNECTIONS: { status: 429, params: ['limit'] },
  STOMP_TOO_MANY_FRAGMENTS: { status: 400, params: ['limit'] },
  /** CONNECT's `cancel-on-disconnect` header is not a whole number of ms in [0, max]. */
  STOMP_CANCEL_ON_DISCONNECT_INVALID: { status: 400, params: ['max'] },
} as const satisfies Record<string, { status: number; params: readonly string[] }>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

type ParamNames<C extends ErrorCode> = (typeof errorCatalogue)[C]['params'][number];
/** Parameters are display-ready: decimal strings for prices and amounts, ids as given. */
export type ErrorParams<C extends ErrorCode> = { [K in ParamNames<C>]: string | number };

/** A refusal on the wire; for the default (any code) it is a union, so `code` narrows `params`. */
export type ApiError<C extends ErrorCode = ErrorCode> = C extends ErrorCode ? { code: C; params: ErrorParams<C> } : never;

/** Builds a refusal; the parameter object is checked against the catalogue at compile time. */
export function apiError<C extends ErrorCode>(code: C, ...rest: ParamNames<C> extends never ? [] : [ErrorParams<C>]): ApiError<C> {
  return { code, params: rest[0] ?? {} } as ApiError<C>;
}

export function httpStatusOf(code: ErrorCode): number {
  return errorCatalogue[code].status;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(errorCatalogue, value);
}

/** A refusal thrown inside the server; the HTTP layer turns it into `{ error: { code, params } }`. */
export class ExchangeError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly params: ErrorParams<C>;
  constructor(error: ApiError<C>) {
    const { code, params } = error as { code: C; params: ErrorParams<C> };
    super(code);
    this.code = code;
    this.params = params;
  }
  get status(): number {
    return httpStatusOf(this.code);
  }
  toJSON(): ApiError<C> {
    return { code: this.code, params: this.params } as ApiError<C>;
  }
}

