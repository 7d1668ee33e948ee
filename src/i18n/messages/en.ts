/**
 * English messages: the fallback language and the reference key set (MessageKey).
 * Flat keys, ICU MessageFormat values. Key scheme in docs/i18n.md.
 * Every code of protocol's errorCatalogue has an `error.<CODE>` entry whose placeholders are exactly
 * the code's params; every status of protocol/enums.ts has a label (see ../enum-labels.ts).
 */
export const en = {
  // ---- Application shell and pages
  'app.title': 'Energy and gas exchange',
  'app.language': 'Language',
  'app.loading': 'Loading…',
  'nav.logout': 'Sign out',

  'login.title': 'Sign in',
  'login.username': 'User',
  'login.password': 'Password',
  'login.code': 'Verification code',
  'login.codeHint': 'The 6-digit code from your authenticator app',
  'login.submit': 'Sign in',
  'login.submitting': 'Signing in…',

  'home.welcome': 'Welcome, {name}!',
  'home.profile': 'Profile',
  'home.user': 'User',
  'home.broker': 'Broker',
  'home.agency': 'Agency',
  'home.terminal': 'Terminal',
  'home.roles': 'Roles',
  'home.notAssigned': 'Not assigned',

  'page.notFound': 'This page could not be found',
  'page.notFound.back': 'Back to the home page',
  'page.error.title': 'Error {status}',
  'page.error.unknownMiddleware': 'Unknown middleware',

  // ---- Client-side form validation (SPEC §5)
  'validation.fieldRequired': 'Field required!',
  'validation.priceRequired': 'Price is required!',
  'validation.priceInvalid': 'Invalid price!',
  'validation.quantityInvalid': 'Invalid quantity!',
  'validation.passwordInvalid': 'Invalid password!',
  'validation.passwordsNotMatching': 'The passwords are not matching!',

  // ---- Errors that never come from the server (SPEC §8, generic)
  'error.client.network': 'Cannot reach server!',
  'error.client.unknownCode': 'Error: {code}',

  // ---- Error catalogue (protocol/error-codes.ts): generic and framework-level
  'error.UNKNOWN_ERROR': 'Unknown error!',
  'error.REQUEST_MALFORMED_JSON': 'The request is not valid JSON.',
  'error.REQUEST_INVALID': 'Invalid request: field {field} ({issue}).',
  'error.REQUEST_BODY_TOO_LARGE': 'The request is too large (limit {limitBytes} bytes).',
  'error.REQUEST_UNSUPPORTED_MEDIA_TYPE': 'Unsupported content type: {contentType}.',
  'error.NOT_FOUND': 'Not found: {path}.',
  'error.FORBIDDEN': 'You are not allowed to do this (required scope: {scope}).',
  'error.SERVICE_UNAVAILABLE': 'The service is temporarily unavailable. Please try again.',

  // Authentication
  'error.AUTH_PASSWORD_EXPIRED': 'Password expired!',
  'error.AUTH_CODE_MISSING': 'The verification code is required!',
  'error.AUTH_CODE_INVALID': 'Invalid verification code!',
  'error.AUTH_CODE_ALREADY_USED': 'This verification code has already been used!',
  'error.AUTH_CREDENTIALS_INVALID': 'Incorrect username or password!',
  'error.AUTH_PASSWORD_USED_BEFORE': 'Password used before!',
  'error.AUTH_PASSWORD_INVALID':
    'Invalid password! It needs at least {minLength} characters, with an uppercase letter, a lowercase letter, a digit and a symbol.',
  'error.AUTH_PASSWORDS_NOT_MATCHING': 'The passwords are not matching!',
  'error.AUTH_PASSWORD_NOT_EXPIRED': 'The password has not expired; change it from your account.',
  'error.AUTH_TOKEN_MISSING': 'You are not signed in.',
  'error.AUTH_TOKEN_EXPIRED': 'Your session has expired. Please sign in again.',
  'error.AUTH_TOKEN_INVALID': 'Your session is not valid. Please sign in again.',
  'error.AUTH_TOO_MANY_ATTEMPTS':
    'Too many attempts. Try again in {retryAfterSeconds, plural, one {# second} other {# seconds}}.',

  // Orders: missing fields
  'error.ORDER_ASSET_ID_MISSING': 'The asset is required!',
  'error.ORDER_VALIDITY_TYPE_MISSING': 'The validity type is required!',
  'error.ORDER_VALIDITY_TIMESTAMP_MISSING': 'The validity date and time are required!',
  'error.ORDER_QUANTITY_MISSING': 'The quantity is required!',
  'error.ORDER_CONTRACT_COUNT_MISSING': 'The number of contracts is required!',
  'error.ORDER_PRICE_MISSING': 'Price is required!',
  'error.ORDER_DIRECTION_MISSING': 'The direction (bid or ask) is required!',
  'error.ORDER_CLIENT_CODE_MISSING': 'The client code is required!',
  // Orders: invalid references and rights
  'error.ORDER_ASSET_ID_INVALID': 'Invalid asset: {assetId}.',
  'error.ORDER_DIRECTION_INVALID': 'Invalid direction: {way}.',
  'error.ORDER_VALIDITY_TYPE_INVALID': 'Invalid validity type: {validityType}.',
  'error.ORDER_CLIENT_CODE_INVALID': 'Invalid client code: {clientCode}.',
  'error.ORDER_CLIENT_NOT_ACTIVE': 'Client {clientCode} is not active.',
  'error.ORDER_INITIATOR_EXISTS': 'An initiator order already exists ({orderId}).',
  'error.ORDER_AGENCY_CLIENT_FORBIDDEN': 'The agency cannot operate on client {clientCode}.',
  'error.ORDER_NO_RIGHT':
    'Client {clientCode} has no right to place {way, select, bid {bid} ask {ask} other {{way}}} orders on asset {assetId}.',
  'error.ORDER_NOT_FOUND': 'Order {orderId} was not found or has expired.',
  'error.ORDER_STATE_INVALID':
    'Order {orderId} cannot be changed in its current status ({status, select, created {created} modified {modified} traded {traded} tradedPartially {partially traded} cancelled {cancelled} other {{status}}}).',
  // Orders: quantity and price
  'error.ORDER_QUANTITY_TOO_LARGE': 'The quantity is too large (maximum {max}).',
  'error.ORDER_QUANTITY_STEP': 'The quantity must be a multiple of {step}.',
  'error.ORDER_PRICE_STEP': 'The price must be a multiple of {step}.',
  'error.ORDER_PRICE_OUTSIDE_LIMITS': 'The price must be between {min} and {max}.',
  'error.ORDER_PRICE_NEGATIVE': 'The price cannot be negative.',
  'error.ORDER_PRICE_ZERO': 'The price cannot be zero.',
  'error.ORDER_PRICE_TOO_MANY_DIGITS':
    'Invalid price! The whole part may have at most {maxDigits, plural, one {# digit} other {# digits}}.',
  'error.ORDER_QUANTITY_BELOW_MINIMUM': 'The quantity is below the minimum of {min}.',
  'error.ORDER_QUANTITY_INVALID': 'Invalid quantity!',
  'error.ORDER_VALIDITY_IN_PAST': 'The validity ({validity}) must be in the future.',
  'error.ORDER_SESSION_MIN_PRICE': 'The price is below the session minimum of {bound}.',
  'error.ORDER_SESSION_MAX_PRICE': 'The price is above the session maximum of {bound}.',
  'error.ORDER_REGULATOR_MAX_PRICE': 'The price is above the regulated maximum price of {bound}.',
  // Orders: per-asset configuration
  'error.ORDER_PRICE_CANNOT_WORSEN': 'The price can only be improved (previous price: {previous}).',
  'error.ORDER_QUANTITY_CANNOT_DECREASE': 'The quantity cannot be decreased (previous quantity: {previous}).',
  'error.ORDER_PRICE_NOT_CHANGEABLE': 'The price of this order cannot be changed.',
  'error.ORDER_ATTRIBUTES_NOT_CHANGEABLE': 'The time or price attributes of this order cannot be changed.',
  'error.ORDER_NOT_CANCELLABLE': 'Orders on this asset cannot be cancelled.',
  // Orders: cross and delta T
  'error.ORDER_CROSS': 'Cross order: first cancel your compatible order {orderId} on the other side.',
  'error.ORDER_CROSS_BID': 'Cross order: first cancel your active order {orderId} on the other side.',
  'error.ORDER_DELTA_T_LOCKED': 'Orders cannot be modified or cancelled during delta T (until {endsAt}).',
  'error.ORDER_DELTA_T_PRICE_STEP': 'During delta T the price must be a multiple of {step}.',
  // Orders: participant restrictions
  'error.ORDER_GAS_RELEASE_FORBIDDEN': 'Client {clientCode} may not place gas release orders on asset {assetId}.',
  'error.ORDER_IMBALANCE_BID_ONLY': 'Because of its imbalance, this client may only buy, up to {quantity}.',
  'error.ORDER_IMBALANCE_ASK_ONLY': 'Because of its imbalance, this client may only sell, up to {quantity}.',
  'error.ORDER_IMBALANCE_QUANTITY_LIMIT': 'The quantity exceeds the imbalance limit of {limit}.',
  'error.ORDER_TRADEABLE_QUANTITY_INSUFFICIENT':
    'Insufficient tradeable quantity: {excess} MWh over the limit of {limit} MWh.',
  'error.ORDER_CLIENT_RESTRICTED_ASK': 'Client {clientCode} is restricted from selling.',
  'error.ORDER_BALANCING_GROUP_NO_CANCEL': 'Orders matched to a balancing group cannot be cancelled.',
  'error.ORDER_BALANCING_GROUP_ONLY_IMPROVE': 'Orders matched to a balancing group can only be improved.',
  'error.ORDER_BALANCING_GROUP_DECREASE_CAP':
    'The quantity of a balancing group order can be decreased by at most {maxDecrease}.',
  'error.ORDER_SIDE_RESTRICTED':
    'You are not allowed to place {way, select, bid {bid} ask {ask} other {{way}}} orders on this asset.',
  'error.ORDER_TRANSMISSION_SIDE_RESTRICTED':
    'The transmission operator rules do not allow {way, select, bid {bid} ask {ask} other {{way}}} orders here.',
  'error.ORDER_NOT_TRANSMISSION_PARTNER': 'Client {clientCode} is not an active partner of the transmission operator.',
  'error.ORDER_INSUFFICIENT_FUNDS': 'Insufficient funds: please deposit {amountToDeposit} {currency}.',
  'error.ORDER_SIMPLE_COMPETITIVE_GTC_ONLY': 'Only GTC orders are accepted on this asset.',
  'error.ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE':
    'Partners trade on the side opposite the initiator: {way, select, bid {bid} ask {ask} other {{way}}} orders are not allowed.',
  'error.ORDER_INITIATOR_QUANTITY_LOCKED': 'The initiator cannot change the quantity.',
  'error.ORDER_INITIATOR_NO_NEW_ORDER': 'The initiator cannot place another order.',
  'error.ORDER_TRADING_DEACTIVATED': 'Trading is deactivated for asset {assetId}.',
  'error.ORDER_FOK_NOT_FILLED': 'Fill-or-kill order rejected: it could not be filled in full.',
  'error.ORDER_IOC_NOT_FILLED': 'Immediate-or-cancel order rejected: it could not be filled at once.',

  // Session
  'error.SESSION_PHASE_FORBIDS':
    'Orders cannot be placed or cancelled {phase, select, opening {in the opening phase} trading {in the trading phase} closing {in the closing phase} suspended {while the session is suspended} closed {while the session is closed} other {in the {phase} phase}}.',
  'error.SESSION_CLOSING_NO_PRICE_CHANGE': 'The price cannot be changed in the CLOSING phase.',
  'error.SESSION_SUSPENDED': 'The session is suspended.',

  // Clearing
  'error.CLEARING_FINANCIAL_LIMIT': 'Financial limit surpassed: the exposure of {exposure} exceeds the limit of {limit}.',
  'error.CLEARING_CLIENT_NOT_ALLOWED': 'Client {clientCode} is not allowed to trade on asset {assetId}.',
  'error.CLEARING_CLIENT_NOT_ACTIVE': 'Client {clientCode} is not active for trading.',
  'error.CLEARING_MAX_CONTRACTS': 'The maximum number of contracts ({max}) has been surpassed.',

  // Whitelist
  'error.WHITELIST_PENDING_EXISTS': 'There is already a pending request for partner {partner}.',
  'error.WHITELIST_PARTNER_EXISTS': '{partner} is already a partner.',
  'error.WHITELIST_NOT_PARTNER': '{partner} is not a partner.',
  'error.WHITELIST_SAME_AS_LATEST': 'The request for {partner} is identical to the latest approved request.',

  // Transfer
  'error.TRANSFER_GAS_RELEASE': 'Transaction {transactionId}: gas release transactions cannot be transferred.',
  'error.TRANSFER_ASSET_NOT_IN_MARKET': 'Transaction {transactionId}: the asset was not found in the other market.',
  'error.TRANSFER_BUYER_NOT_FOUND': 'Transaction {transactionId}: the buyer was not found.',
  'error.TRANSFER_SELLER_NOT_FOUND': 'Transaction {transactionId}: the seller was not found.',
  'error.TRANSFER_BUYER_NOT_ACTIVE': 'Transaction {transactionId}: the buyer is not active for trading.',
  'error.TRANSFER_SELLER_NOT_ACTIVE': 'Transaction {transactionId}: the seller is not active for trading.',
  'error.TRANSFER_NO_SESSION': 'Transaction {transactionId}: there is no session on {date}.',
  'error.TRANSFER_NO_BUY_AGENCY_BROKER': 'Transaction {transactionId}: the buying agency has no active brokers.',
  'error.TRANSFER_NO_SELL_AGENCY_BROKER': 'Transaction {transactionId}: the selling agency has no active brokers.',
  'error.TRANSFER_INITIATOR_NOT_ACTIVE': 'Transaction {transactionId}: the initiator is not active for trading.',
  'error.TRANSFER_PARTNER_NOT_ACTIVE': 'Transaction {transactionId}: the partner is not active for trading.',
  'error.TRANSFER_INITIATOR_INSUFFICIENT_FUNDS': 'Transaction {transactionId}: the initiator has insufficient funds.',
  'error.TRANSFER_PARTNER_INSUFFICIENT_FUNDS': 'Transaction {transactionId}: the partner has insufficient funds.',
  'error.TRANSFER_LIMIT_DATE_EXCEEDED': 'Transaction {transactionId}: the limit date for the transfer has passed.',
  'error.TRANSFER_NOT_PARTICIPANT': 'Transaction {transactionId}: you are not a participant in this transaction.',

  // OTC rejection reasons
  'error.OTC_INITIATOR_NOT_ACTIVE': 'The initiator is not active for trading.',
  'error.OTC_PARTNER_NOT_ACTIVE': 'The partner is not active for trading.',
  'error.OTC_INITIATOR_INSUFFICIENT_FUNDS': 'The initiator has insufficient funds.',
  'error.OTC_PARTNER_INSUFFICIENT_FUNDS': 'The partner has insufficient funds.',
  'error.OTC_PRICE_VARIATION': 'The price differs by more than {maxPercent}% from the settlement price of {settlementPrice}.',
  'error.OTC_LIMIT_DATE_EXCEEDED': 'The limit date has passed.',

  // Workspaces
  'error.WORKSPACE_DELETE_FAILED': 'Error while deleting the personal workspace.',
  'error.WORKSPACE_SAVE_FAILED': 'Error while saving the personal workspace.',
  'error.WORKSPACE_EDIT_FAILED': 'Error while editing the personal workspace.',
  'error.WORKSPACE_LOAD_FAILED': 'Error while loading the personal workspaces.',

  // Contract upload
  'error.CONTRACT_UNKNOWN_ERROR': 'The contract could not be uploaded.',
  'error.CONTRACT_EXISTS': 'A contract already exists for transaction {transactionId}.',
  'error.CONTRACT_TRANSACTION_NOT_FOUND': 'Transaction {transactionId} was not found.',
  'error.CONTRACT_NOT_PARTICIPANT': 'You are not a participant in transaction {transactionId}.',
  'error.CONTRACT_INVALID_FILE_NAME': 'Invalid file name: {fileName}.',
  'error.CONTRACT_NOT_PDF': 'The file {fileName} is not a PDF.',

  // Live channel (STOMP)
  'error.STOMP_FRAME_MALFORMED': 'Malformed message on the live channel.',
  'error.STOMP_FRAME_TOO_LARGE': 'The live channel message is too large (limit {limitBytes} bytes).',
  'error.STOMP_TOO_MANY_HEADERS': 'Too many headers in a live channel message (limit {limit}).',
  'error.STOMP_NOT_CONNECTED': 'The live channel is not connected.',
  'error.STOMP_CONNECT_TIMEOUT': 'The live channel did not connect in time ({timeoutMs} ms).',
  'error.STOMP_HEARTBEAT_TIMEOUT': 'The live channel stopped responding ({timeoutMs} ms without a heartbeat).',
  'error.STOMP_DESTINATION_UNKNOWN': 'Unknown live channel destination: {destination}.',
  'error.STOMP_DESTINATION_FORBIDDEN': 'You are not allowed to subscribe to {destination}.',
  'error.STOMP_SUBSCRIPTION_DUPLICATE': 'Subscription {id} already exists.',
  'error.STOMP_SUBSCRIPTION_UNKNOWN': 'Unknown subscription: {id}.',
  'error.STOMP_SLOW_CONSUMER': 'The connection is too slow for the live updates (buffer limit {limitBytes} bytes).',
  'error.STOMP_VERSION_UNSUPPORTED': 'Unsupported protocol version; supported versions: {supported}.',

  // ---- Status and type labels (protocol/enums.ts), see ../enum-labels.ts
  'status.order.created': 'Created',
  'status.order.modified': 'Modified',
  'status.order.traded': 'Traded',
  'status.order.tradedPartially': 'Partially traded',
  'status.order.cancelled': 'Cancelled',

  'way.bid': 'Bid',
  'way.ask': 'Ask',

  'validity.day': 'Day',
  'validity.GTC': 'Good till cancelled (GTC)',
  'validity.GTD': 'Good till date (GTD)',
  'validity.GTSV': 'Good till a specified date and time (GTSV)',

  'execution.normal': 'Normal',
  'execution.FOK': 'Fill or kill (FOK)',
  'execution.IOC': 'Immediate or cancel (IOC)',

  'activity.orderCreated': 'Order created',
  'activity.orderModified': 'Order modified',
  'activity.orderTraded': 'Order traded',
  'activity.orderTradedPartially': 'Order partially traded',
  'activity.orderCancelled': 'Order cancelled',
  'activity.deltaTStart': 'Delta T start (trade match)',

  'phase.opening': 'Opening',
  'phase.trading': 'Trading',
  'phase.closing': 'Closing',
  'phase.suspended': 'Suspended',
  'phase.closed': 'Closed',

  'contract.status.NOT_INITIALIZED': 'Not initialized',
  'contract.status.AWAITING_PARTNER_ACCEPT': 'Awaiting partner acceptance',
  'contract.status.AWAITING_ADMIN_APPROVAL': 'Awaiting administrator approval',
  'contract.status.FINALIZED': 'Finalized',

  'otc.status.new': 'New',
  'otc.status.awaiting_partner_accept': 'Awaiting partner acceptance',
  'otc.status.awaiting_admin_approval': 'Awaiting administrator approval',
  'otc.status.finalized': 'Finalized',
  'otc.status.rejected': 'Rejected',
  'otc.status.expired': 'Expired',

  'otc.action.activate': 'Activate',
  'otc.action.acceptActivation': 'Accept activation',
  'otc.action.delete': 'Delete',
  'otc.action.approve': 'Approve',
  'otc.action.reject': 'Reject',

  'transfer.action.request': 'Request transfer',
  'transfer.action.cancel': 'Cancel transfer',
  'transfer.action.accept': 'Accept',
  'transfer.action.approve': 'Approve',
  'transfer.action.approveWithoutChecks': 'Approve without checks',
  'transfer.action.reject': 'Reject',

  'transfer.outcome.finalized': 'Completed',
  'transfer.outcome.rejectedByOperator': 'Rejected by the market operator',
  'transfer.outcome.rejectedByPartner': 'Rejected by the partner',
  'transfer.outcome.failed': 'Failed',
  'transfer.outcome.nonTransferable': 'Non-transferable',
  'transfer.outcome.awaitingPartnerAccept': 'Awaiting partner acceptance',
  'transfer.outcome.awaitingAdminApproval': 'Awaiting administrator approval',

  'margin.status.inactive': 'Inactive',
  'margin.status.awaitingApproval': 'Awaiting approval',
  'margin.status.active': 'Active',

  'whitelist.requestType.ALLOW_TRADING': 'Allow trading',
  'whitelist.requestType.DENY_TRADING': 'Deny trading',
  'whitelist.requestStatus.PENDING': 'Pending',
  'whitelist.requestStatus.APPROVED': 'Approved',
  'whitelist.requestStatus.REJECTED': 'Rejected',
  'whitelist.requestStatus.CANCELLED': 'Cancelled',
  'whitelist.relationStatus.PENDING': 'Pending',
  'whitelist.relationStatus.ACTIVE': 'Active',
  'whitelist.relationStatus.DISABLED': 'Disabled',

  'workspace.type.gas': 'Gas',
  'workspace.type.energy': 'Electricity',
  'workspace.type.gas-bg': 'Gas (balancing group)',

  'theme.light': 'Light',
  'theme.dark': 'Dark',

  'locale.ro': 'Română',
  'locale.en': 'English',

  'role.client': 'Client',
  'role.broker': 'Broker',
  'role.agency': 'Agency',
  'role.terminal': 'Terminal',
  'role.assetOwner': 'Asset owner',
  'role.transmissionPartner': 'Transmission operator partner',
  'role.administrator': 'Exchange administrator',

  'commodity.gas': 'Gas',
  'commodity.electricity': 'Electricity',

  'market.kind.forward': 'Forward',
  'market.kind.spot': 'Spot',
  'market.kind.ccp': 'Central counterparty cleared',
  'market.kind.balancingGroup': 'Balancing group',
  'market.kind.pmc': 'PMC',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;
