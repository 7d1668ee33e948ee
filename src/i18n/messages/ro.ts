import type { MessageKey } from './en.ts';

/**
 * Romanian messages, the default language. Same keys as en.ts (the type enforces it, and so does
 * tests/src/i18n/messages.test.ts). Diacritics with comma below: ș ț (not the cedilla ş ţ).
 */
export const ro: Record<MessageKey, string> = {
  // ---- Application shell and pages
  'app.title': 'Bursa de energie și gaze naturale',
  'app.language': 'Limbă',
  'app.loading': 'Se încarcă…',
  'nav.logout': 'Deconectare',

  'login.title': 'Autentificare',
  'login.username': 'Utilizator',
  'login.password': 'Parolă',
  'login.code': 'Cod de verificare',
  'login.codeHint': 'Codul de 6 cifre din aplicația de autentificare',
  'login.submit': 'Conectare',
  'login.submitting': 'Se conectează…',

  'home.welcome': 'Bine ați venit, {name}!',
  'home.profile': 'Profil',
  'home.user': 'Utilizator',
  'home.broker': 'Broker',
  'home.agency': 'Agenție',
  'home.terminal': 'Terminal',
  'home.roles': 'Roluri',
  'home.notAssigned': 'Nealocat',

  'page.notFound': 'Această pagină nu a putut fi găsită',
  'page.notFound.back': 'Înapoi la pagina principală',
  'page.error.title': 'Eroare {status}',
  'page.error.unknownMiddleware': 'Middleware necunoscut',

  // ---- Client-side form validation (SPEC §5)
  'validation.fieldRequired': 'Câmp obligatoriu!',
  'validation.priceRequired': 'Prețul este obligatoriu!',
  'validation.priceInvalid': 'Preț invalid!',
  'validation.quantityInvalid': 'Cantitate invalidă!',
  'validation.passwordInvalid': 'Parolă invalidă!',
  'validation.passwordsNotMatching': 'Parolele nu coincid!',

  // ---- Errors that never come from the server
  'error.client.network': 'Serverul nu poate fi contactat!',
  'error.client.unknownCode': 'Eroare: {code}',

  // ---- Error catalogue: generic and framework-level
  'error.UNKNOWN_ERROR': 'Eroare necunoscută!',
  'error.REQUEST_MALFORMED_JSON': 'Cererea nu este un JSON valid.',
  'error.REQUEST_INVALID': 'Cerere invalidă: câmpul {field} ({issue}).',
  'error.REQUEST_BODY_TOO_LARGE': 'Cererea este prea mare (limita este de {limitBytes} octeți).',
  'error.REQUEST_UNSUPPORTED_MEDIA_TYPE': 'Tip de conținut neacceptat: {contentType}.',
  'error.NOT_FOUND': 'Resursa nu a fost găsită: {path}.',
  'error.FORBIDDEN': 'Nu aveți dreptul să efectuați această operațiune (drept necesar: {scope}).',
  'error.SERVICE_UNAVAILABLE': 'Serviciul este temporar indisponibil. Vă rugăm să reîncercați.',

  // Autentificare
  'error.AUTH_PASSWORD_EXPIRED': 'Parola a expirat!',
  'error.AUTH_CODE_MISSING': 'Codul de verificare este obligatoriu!',
  'error.AUTH_CODE_INVALID': 'Cod de verificare invalid!',
  'error.AUTH_CODE_ALREADY_USED': 'Acest cod de verificare a fost deja folosit!',
  'error.AUTH_CREDENTIALS_INVALID': 'Nume de utilizator sau parolă incorecte!',
  'error.AUTH_PASSWORD_USED_BEFORE': 'Parola a mai fost folosită!',
  'error.AUTH_PASSWORD_INVALID':
    'Parolă invalidă! Trebuie să aibă cel puțin {minLength} caractere, cu o literă mare, o literă mică, o cifră și un simbol.',
  'error.AUTH_PASSWORDS_NOT_MATCHING': 'Parolele nu coincid!',
  'error.AUTH_PASSWORD_NOT_EXPIRED': 'Parola nu a expirat; o puteți schimba din contul dumneavoastră.',
  'error.AUTH_TOKEN_MISSING': 'Nu sunteți autentificat.',
  'error.AUTH_TOKEN_EXPIRED': 'Sesiunea a expirat. Vă rugăm să vă autentificați din nou.',
  'error.AUTH_TOKEN_INVALID': 'Sesiunea nu este validă. Vă rugăm să vă autentificați din nou.',
  'error.AUTH_TOO_MANY_ATTEMPTS':
    'Prea multe încercări. Reîncercați peste {retryAfterSeconds, plural, one {# secundă} few {# secunde} other {# de secunde}}.',

  // Ordine: câmpuri lipsă
  'error.ORDER_ASSET_ID_MISSING': 'Activul este obligatoriu!',
  'error.ORDER_VALIDITY_TYPE_MISSING': 'Tipul de valabilitate este obligatoriu!',
  'error.ORDER_VALIDITY_TIMESTAMP_MISSING': 'Data și ora de valabilitate sunt obligatorii!',
  'error.ORDER_QUANTITY_MISSING': 'Cantitatea este obligatorie!',
  'error.ORDER_CONTRACT_COUNT_MISSING': 'Numărul de contracte este obligatoriu!',
  'error.ORDER_PRICE_MISSING': 'Prețul este obligatoriu!',
  'error.ORDER_DIRECTION_MISSING': 'Direcția (cumpărare sau vânzare) este obligatorie!',
  'error.ORDER_CLIENT_CODE_MISSING': 'Codul clientului este obligatoriu!',
  // Ordine: referințe invalide și drepturi
  'error.ORDER_ASSET_ID_INVALID': 'Activ invalid: {assetId}.',
  'error.ORDER_DIRECTION_INVALID': 'Direcție invalidă: {way}.',
  'error.ORDER_VALIDITY_TYPE_INVALID': 'Tip de valabilitate invalid: {validityType}.',
  'error.ORDER_CLIENT_CODE_INVALID': 'Cod de client invalid: {clientCode}.',
  'error.ORDER_CLIENT_NOT_ACTIVE': 'Clientul {clientCode} nu este activ.',
  'error.ORDER_INITIATOR_EXISTS': 'Există deja un ordin inițiator ({orderId}).',
  'error.ORDER_AGENCY_CLIENT_FORBIDDEN': 'Agenția nu poate opera pentru clientul {clientCode}.',
  'error.ORDER_NO_RIGHT':
    'Clientul {clientCode} nu are dreptul să plaseze ordine de {way, select, bid {cumpărare} ask {vânzare} other {{way}}} pe activul {assetId}.',
  'error.ORDER_NOT_FOUND': 'Ordinul {orderId} nu a fost găsit sau a expirat.',
  'error.ORDER_STATE_INVALID':
    'Ordinul {orderId} nu poate fi modificat în starea curentă ({status, select, created {creat} modified {modificat} traded {tranzacționat} tradedPartially {tranzacționat parțial} cancelled {anulat} other {{status}}}).',
  // Ordine: cantitate și preț
  'error.ORDER_QUANTITY_TOO_LARGE': 'Cantitatea este prea mare (maximum {max}).',
  'error.ORDER_QUANTITY_STEP': 'Cantitatea trebuie să fie multiplu de {step}.',
  'error.ORDER_PRICE_STEP': 'Prețul trebuie să fie multiplu de {step}.',
  'error.ORDER_PRICE_OUTSIDE_LIMITS': 'Prețul trebuie să fie între {min} și {max}.',
  'error.ORDER_PRICE_NEGATIVE': 'Prețul nu poate fi negativ.',
  'error.ORDER_PRICE_ZERO': 'Prețul nu poate fi zero.',
  'error.ORDER_PRICE_TOO_MANY_DIGITS':
    'Preț invalid! Partea întreagă poate avea cel mult {maxDigits, plural, one {# cifră} few {# cifre} other {# de cifre}}.',
  'error.ORDER_QUANTITY_BELOW_MINIMUM': 'Cantitatea este sub minimul de {min}.',
  'error.ORDER_QUANTITY_INVALID': 'Cantitate invalidă!',
  'error.ORDER_VALIDITY_IN_PAST': 'Valabilitatea ({validity}) trebuie să fie în viitor.',
  'error.ORDER_SESSION_MIN_PRICE': 'Prețul este sub minimul sesiunii de {bound}.',
  'error.ORDER_SESSION_MAX_PRICE': 'Prețul este peste maximul sesiunii de {bound}.',
  'error.ORDER_REGULATOR_MAX_PRICE': 'Prețul depășește prețul maxim reglementat de {bound}.',
  // Ordine: configurația activului
  'error.ORDER_PRICE_CANNOT_WORSEN': 'Prețul poate fi doar îmbunătățit (prețul anterior: {previous}).',
  'error.ORDER_QUANTITY_CANNOT_DECREASE': 'Cantitatea nu poate fi micșorată (cantitatea anterioară: {previous}).',
  'error.ORDER_PRICE_NOT_CHANGEABLE': 'Prețul acestui ordin nu poate fi modificat.',
  'error.ORDER_ATTRIBUTES_NOT_CHANGEABLE': 'Atributele de timp sau de preț ale acestui ordin nu pot fi modificate.',
  'error.ORDER_NOT_CANCELLABLE': 'Ordinele de pe acest activ nu pot fi anulate.',
  // Ordine: încrucișate și delta T
  'error.ORDER_CROSS': 'Ordin încrucișat: anulați mai întâi ordinul compatibil {orderId} de pe cealaltă direcție.',
  'error.ORDER_CROSS_BID': 'Ordin încrucișat: anulați mai întâi ordinul activ {orderId} de pe cealaltă direcție.',
  'error.ORDER_DELTA_T_LOCKED': 'Ordinele nu pot fi modificate sau anulate în perioada delta T (până la {endsAt}).',
  'error.ORDER_DELTA_T_PRICE_STEP': 'În perioada delta T prețul trebuie să fie multiplu de {step}.',
  // Ordine: restricții ale participanților
  'error.ORDER_GAS_RELEASE_FORBIDDEN':
    'Clientul {clientCode} nu are permisiunea de a plasa ordine de eliberare a gazelor (gas release) pe activul {assetId}.',
  'error.ORDER_IMBALANCE_BID_ONLY': 'Din cauza dezechilibrului, acest client poate doar să cumpere, până la {quantity}.',
  'error.ORDER_IMBALANCE_ASK_ONLY': 'Din cauza dezechilibrului, acest client poate doar să vândă, până la {quantity}.',
  'error.ORDER_IMBALANCE_QUANTITY_LIMIT': 'Cantitatea depășește limita de dezechilibru de {limit}.',
  'error.ORDER_TRADEABLE_QUANTITY_INSUFFICIENT':
    'Cantitate tranzacționabilă insuficientă: {excess} MWh peste limita de {limit} MWh.',
  'error.ORDER_CLIENT_RESTRICTED_ASK': 'Clientul {clientCode} este restricționat la vânzare.',
  'error.ORDER_BALANCING_GROUP_NO_CANCEL': 'Ordinele asociate unui grup de echilibrare nu pot fi anulate.',
  'error.ORDER_BALANCING_GROUP_ONLY_IMPROVE': 'Ordinele asociate unui grup de echilibrare pot fi doar îmbunătățite.',
  'error.ORDER_BALANCING_GROUP_DECREASE_CAP':
    'Cantitatea unui ordin asociat unui grup de echilibrare poate fi micșorată cu cel mult {maxDecrease}.',
  'error.ORDER_SIDE_RESTRICTED':
    'Nu aveți dreptul să plasați ordine de {way, select, bid {cumpărare} ask {vânzare} other {{way}}} pe acest activ.',
  'error.ORDER_TRANSMISSION_SIDE_RESTRICTED':
    'Regulile operatorului de transport nu permit aici ordine de {way, select, bid {cumpărare} ask {vânzare} other {{way}}}.',
  'error.ORDER_NOT_TRANSMISSION_PARTNER': 'Clientul {clientCode} nu este partener activ al operatorului de transport.',
  'error.ORDER_INSUFFICIENT_FUNDS': 'Fonduri insuficiente: vă rugăm să depuneți {amountToDeposit} {currency}.',
  'error.ORDER_SIMPLE_COMPETITIVE_GTC_ONLY': 'Pe acest activ sunt acceptate doar ordine GTC.',
  'error.ORDER_SIMPLE_COMPETITIVE_WRONG_SIDE':
    'Partenerii tranzacționează pe direcția opusă inițiatorului: ordinele de {way, select, bid {cumpărare} ask {vânzare} other {{way}}} nu sunt permise.',
  'error.ORDER_INITIATOR_QUANTITY_LOCKED': 'Inițiatorul nu poate modifica cantitatea.',
  'error.ORDER_INITIATOR_NO_NEW_ORDER': 'Inițiatorul nu poate plasa un alt ordin.',
  'error.ORDER_TRADING_DEACTIVATED': 'Tranzacționarea este dezactivată pentru activul {assetId}.',
  'error.ORDER_FOK_NOT_FILLED': 'Ordinul „execută integral sau anulează” (FOK) a fost respins: nu a putut fi executat integral.',
  'error.ORDER_IOC_NOT_FILLED': 'Ordinul „execută imediat sau anulează” (IOC) a fost respins: nu a putut fi executat imediat.',

  // Sesiune
  'error.SESSION_PHASE_FORBIDS':
    'Ordinele nu pot fi plasate sau anulate {phase, select, opening {în faza de deschidere} trading {în faza de tranzacționare} closing {în faza de închidere} suspended {cât timp sesiunea este suspendată} closed {cât timp sesiunea este închisă} other {în faza {phase}}}.',
  'error.SESSION_CLOSING_NO_PRICE_CHANGE': 'Prețul nu poate fi modificat în faza de ÎNCHIDERE.',
  'error.SESSION_SUSPENDED': 'Sesiunea este suspendată.',

  // Compensare
  'error.CLEARING_FINANCIAL_LIMIT': 'Limita financiară a fost depășită: expunerea de {exposure} depășește limita de {limit}.',
  'error.CLEARING_CLIENT_NOT_ALLOWED': 'Clientul {clientCode} nu are dreptul să tranzacționeze pe activul {assetId}.',
  'error.CLEARING_CLIENT_NOT_ACTIVE': 'Clientul {clientCode} nu este activ pentru tranzacționare.',
  'error.CLEARING_MAX_CONTRACTS': 'Numărul maxim de contracte ({max}) a fost depășit.',

  // Listă de parteneri (whitelist)
  'error.WHITELIST_PENDING_EXISTS': 'Există deja o cerere în așteptare pentru partenerul {partner}.',
  'error.WHITELIST_PARTNER_EXISTS': '{partner} este deja partener.',
  'error.WHITELIST_NOT_PARTNER': '{partner} nu este partener.',
  'error.WHITELIST_SAME_AS_LATEST': 'Cererea pentru {partner} este identică cu ultima cerere aprobată.',

  // Transfer
  'error.TRANSFER_GAS_RELEASE':
    'Tranzacția {transactionId}: tranzacțiile de eliberare a gazelor (gas release) nu pot fi transferate.',
  'error.TRANSFER_ASSET_NOT_IN_MARKET': 'Tranzacția {transactionId}: activul nu a fost găsit în cealaltă piață.',
  'error.TRANSFER_BUYER_NOT_FOUND': 'Tranzacția {transactionId}: cumpărătorul nu a fost găsit.',
  'error.TRANSFER_SELLER_NOT_FOUND': 'Tranzacția {transactionId}: vânzătorul nu a fost găsit.',
  'error.TRANSFER_BUYER_NOT_ACTIVE': 'Tranzacția {transactionId}: cumpărătorul nu este activ pentru tranzacționare.',
  'error.TRANSFER_SELLER_NOT_ACTIVE': 'Tranzacția {transactionId}: vânzătorul nu este activ pentru tranzacționare.',
  'error.TRANSFER_NO_SESSION': 'Tranzacția {transactionId}: nu există nicio sesiune la data de {date}.',
  'error.TRANSFER_NO_BUY_AGENCY_BROKER': 'Tranzacția {transactionId}: agenția cumpărătorului nu are brokeri activi.',
  'error.TRANSFER_NO_SELL_AGENCY_BROKER': 'Tranzacția {transactionId}: agenția vânzătorului nu are brokeri activi.',
  'error.TRANSFER_INITIATOR_NOT_ACTIVE': 'Tranzacția {transactionId}: inițiatorul nu este activ pentru tranzacționare.',
  'error.TRANSFER_PARTNER_NOT_ACTIVE': 'Tranzacția {transactionId}: partenerul nu este activ pentru tranzacționare.',
  'error.TRANSFER_INITIATOR_INSUFFICIENT_FUNDS': 'Tranzacția {transactionId}: inițiatorul nu are fonduri suficiente.',
  'error.TRANSFER_PARTNER_INSUFFICIENT_FUNDS': 'Tranzacția {transactionId}: partenerul nu are fonduri suficiente.',
  'error.TRANSFER_LIMIT_DATE_EXCEEDED': 'Tranzacția {transactionId}: data limită pentru transfer a fost depășită.',
  'error.TRANSFER_NOT_PARTICIPANT': 'Tranzacția {transactionId}: nu sunteți participant la această tranzacție.',

  // Motive de respingere OTC
  'error.OTC_INITIATOR_NOT_ACTIVE': 'Inițiatorul nu este activ pentru tranzacționare.',
  'error.OTC_PARTNER_NOT_ACTIVE': 'Partenerul nu este activ pentru tranzacționare.',
  'error.OTC_INITIATOR_INSUFFICIENT_FUNDS': 'Inițiatorul nu are fonduri suficiente.',
  'error.OTC_PARTNER_INSUFFICIENT_FUNDS': 'Partenerul nu are fonduri suficiente.',
  'error.OTC_PRICE_VARIATION': 'Prețul diferă cu mai mult de {maxPercent}% față de prețul de decontare de {settlementPrice}.',
  'error.OTC_LIMIT_DATE_EXCEEDED': 'Data limită a fost depășită.',

  // Spații de lucru
  'error.WORKSPACE_DELETE_FAILED': 'Eroare la ștergerea spațiului de lucru personal.',
  'error.WORKSPACE_SAVE_FAILED': 'Eroare la salvarea spațiului de lucru personal.',
  'error.WORKSPACE_EDIT_FAILED': 'Eroare la editarea spațiului de lucru personal.',
  'error.WORKSPACE_LOAD_FAILED': 'Eroare la încărcarea spațiilor de lucru personale.',

  // Încărcarea contractelor
  'error.CONTRACT_UNKNOWN_ERROR': 'Contractul nu a putut fi încărcat.',
  'error.CONTRACT_EXISTS': 'Există deja un contract pentru tranzacția {transactionId}.',
  'error.CONTRACT_TRANSACTION_NOT_FOUND': 'Tranzacția {transactionId} nu a fost găsită.',
  'error.CONTRACT_NOT_PARTICIPANT': 'Nu sunteți participant la tranzacția {transactionId}.',
  'error.CONTRACT_INVALID_FILE_NAME': 'Nume de fișier invalid: {fileName}.',
  'error.CONTRACT_NOT_PDF': 'Fișierul {fileName} nu este un PDF.',

  // Canalul în timp real (STOMP)
  'error.STOMP_FRAME_MALFORMED': 'Mesaj invalid pe canalul în timp real.',
  'error.STOMP_FRAME_TOO_LARGE': 'Mesajul de pe canalul în timp real este prea mare (limita este de {limitBytes} octeți).',
  'error.STOMP_TOO_MANY_HEADERS': 'Prea multe antete într-un mesaj de pe canalul în timp real (limita este {limit}).',
  'error.STOMP_NOT_CONNECTED': 'Canalul în timp real nu este conectat.',
  'error.STOMP_CONNECT_TIMEOUT': 'Canalul în timp real nu s-a conectat la timp ({timeoutMs} ms).',
  'error.STOMP_HEARTBEAT_TIMEOUT': 'Canalul în timp real nu mai răspunde ({timeoutMs} ms fără semnal de activitate).',
  'error.STOMP_DESTINATION_UNKNOWN': 'Destinație necunoscută pe canalul în timp real: {destination}.',
  'error.STOMP_DESTINATION_FORBIDDEN': 'Nu aveți dreptul să vă abonați la {destination}.',
  'error.STOMP_SUBSCRIPTION_DUPLICATE': 'Abonamentul {id} există deja.',
  'error.STOMP_SUBSCRIPTION_UNKNOWN': 'Abonament necunoscut: {id}.',
  'error.STOMP_SLOW_CONSUMER':
    'Conexiunea este prea lentă pentru actualizările în timp real (limita memoriei tampon este de {limitBytes} octeți).',
  'error.STOMP_VERSION_UNSUPPORTED': 'Versiune de protocol neacceptată; versiuni acceptate: {supported}.',

  // ---- Etichete de stare și de tip
  'status.order.created': 'Creat',
  'status.order.modified': 'Modificat',
  'status.order.traded': 'Tranzacționat',
  'status.order.tradedPartially': 'Tranzacționat parțial',
  'status.order.cancelled': 'Anulat',

  'way.bid': 'Cumpărare',
  'way.ask': 'Vânzare',

  'validity.day': 'Zi',
  'validity.GTC': 'Valabil până la anulare (GTC)',
  'validity.GTD': 'Valabil până la o dată (GTD)',
  'validity.GTSV': 'Valabil până la o dată și oră specificate (GTSV)',

  'execution.normal': 'Normal',
  'execution.FOK': 'Execută integral sau anulează (FOK)',
  'execution.IOC': 'Execută imediat sau anulează (IOC)',

  'activity.orderCreated': 'Ordin creat',
  'activity.orderModified': 'Ordin modificat',
  'activity.orderTraded': 'Ordin tranzacționat',
  'activity.orderTradedPartially': 'Ordin tranzacționat parțial',
  'activity.orderCancelled': 'Ordin anulat',
  'activity.deltaTStart': 'Început delta T (corelare)',

  'phase.opening': 'Deschidere',
  'phase.trading': 'Tranzacționare',
  'phase.closing': 'Închidere',
  'phase.suspended': 'Suspendată',
  'phase.closed': 'Închisă',

  'contract.status.NOT_INITIALIZED': 'Neinițiat',
  'contract.status.AWAITING_PARTNER_ACCEPT': 'În așteptarea acceptului partenerului',
  'contract.status.AWAITING_ADMIN_APPROVAL': 'În așteptarea aprobării administratorului',
  'contract.status.FINALIZED': 'Finalizat',

  'otc.status.new': 'Nouă',
  'otc.status.awaiting_partner_accept': 'În așteptarea acceptului partenerului',
  'otc.status.awaiting_admin_approval': 'În așteptarea aprobării administratorului',
  'otc.status.finalized': 'Finalizată',
  'otc.status.rejected': 'Respinsă',
  'otc.status.expired': 'Expirată',

  'otc.action.activate': 'Activează',
  'otc.action.acceptActivation': 'Acceptă activarea',
  'otc.action.delete': 'Șterge',
  'otc.action.approve': 'Aprobă',
  'otc.action.reject': 'Respinge',

  'transfer.action.request': 'Solicită transferul',
  'transfer.action.cancel': 'Anulează transferul',
  'transfer.action.accept': 'Acceptă',
  'transfer.action.approve': 'Aprobă',
  'transfer.action.approveWithoutChecks': 'Aprobă fără verificări',
  'transfer.action.reject': 'Respinge',

  'transfer.outcome.finalized': 'Finalizat',
  'transfer.outcome.rejectedByOperator': 'Respins de operatorul pieței',
  'transfer.outcome.rejectedByPartner': 'Respins de partener',
  'transfer.outcome.failed': 'Eșuat',
  'transfer.outcome.nonTransferable': 'Netransferabil',
  'transfer.outcome.awaitingPartnerAccept': 'În așteptarea acceptului partenerului',
  'transfer.outcome.awaitingAdminApproval': 'În așteptarea aprobării administratorului',

  'margin.status.inactive': 'Inactivă',
  'margin.status.awaitingApproval': 'În așteptarea aprobării',
  'margin.status.active': 'Activă',

  'whitelist.requestType.ALLOW_TRADING': 'Permite tranzacționarea',
  'whitelist.requestType.DENY_TRADING': 'Interzice tranzacționarea',
  'whitelist.requestStatus.PENDING': 'În așteptare',
  'whitelist.requestStatus.APPROVED': 'Aprobată',
  'whitelist.requestStatus.REJECTED': 'Respinsă',
  'whitelist.requestStatus.CANCELLED': 'Anulată',
  'whitelist.relationStatus.PENDING': 'În așteptare',
  'whitelist.relationStatus.ACTIVE': 'Activă',
  'whitelist.relationStatus.DISABLED': 'Dezactivată',

  'workspace.type.gas': 'Gaze naturale',
  'workspace.type.energy': 'Energie electrică',
  'workspace.type.gas-bg': 'Gaze naturale (grup de echilibrare)',

  'theme.light': 'Luminoasă',
  'theme.dark': 'Întunecată',

  'locale.ro': 'Română',
  'locale.en': 'English',

  'role.client': 'Client',
  'role.broker': 'Broker',
  'role.agency': 'Agenție',
  'role.terminal': 'Terminal',
  'role.assetOwner': 'Proprietar de activ',
  'role.transmissionPartner': 'Partener al operatorului de transport',
  'role.administrator': 'Administrator al bursei',

  'commodity.gas': 'Gaze naturale',
  'commodity.electricity': 'Energie electrică',

  'market.kind.forward': 'Forward',
  'market.kind.spot': 'Spot',
  'market.kind.ccp': 'Compensare prin contraparte centrală',
  'market.kind.balancingGroup': 'Grup de echilibrare',
  'market.kind.pmc': 'PMC',
};
