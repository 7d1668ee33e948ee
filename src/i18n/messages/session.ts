/** Messages of the sign-in that serves every window: expiry countdown, signing in again, pop-out book. */
export const sessionEn = {
  'session.expiresIn': 'Session ends in {time}',
  'session.expiredChip': 'Session expired',
  'session.renew': 'Sign in again',
  'session.renewTitle': 'Sign in again to stay connected',
  'session.renewExpiring': 'Your session ends in {time}. Sign in again with your password and a new verification code: this page, its books and open tickets stay as they are, in every window.',
  'session.renewExpired': 'Your session has expired. Sign in again with your password and a new verification code to continue: this page stays as it is.',
  'session.renewUser': 'Signed in as {username}',
  'session.renewSubmit': 'Sign in again',
  'session.renewLater': 'Later',
  'session.renewSignOut': 'Sign out',
  'session.expiredBanner': 'Your session has expired. Orders cannot be placed, changed or cancelled until you sign in again.',
  'session.popOut': 'Open {asset} in its own window',
  'session.popOutTitle': '{asset}: order book',
  'session.referenceFailed': 'Markets and assets could not be loaded ({reason}): new orders wait for them.',
} as const satisfies Record<string, string>;

export const sessionRo: Record<keyof typeof sessionEn, string> = {
  'session.expiresIn': 'Sesiunea se încheie în {time}',
  'session.expiredChip': 'Sesiune expirată',
  'session.renew': 'Conectați-vă din nou',
  'session.renewTitle': 'Conectați-vă din nou pentru a rămâne conectat',
  'session.renewExpiring': 'Sesiunea se încheie în {time}. Conectați-vă din nou cu parola și un cod de verificare nou: pagina, registrele și tichetele deschise rămân așa cum sunt, în toate ferestrele.',
  'session.renewExpired': 'Sesiunea a expirat. Conectați-vă din nou cu parola și un cod de verificare nou pentru a continua: pagina rămâne așa cum este.',
  'session.renewUser': 'Conectat ca {username}',
  'session.renewSubmit': 'Conectare din nou',
  'session.renewLater': 'Mai târziu',
  'session.renewSignOut': 'Deconectare',
  'session.expiredBanner': 'Sesiunea a expirat. Ordinele nu pot fi introduse, modificate sau anulate până când vă conectați din nou.',
  'session.popOut': 'Deschide {asset} într-o fereastră separată',
  'session.popOutTitle': '{asset}: registrul de ordine',
  'session.referenceFailed': 'Piețele și activele nu au putut fi încărcate ({reason}): ordinele noi le așteaptă.',
};
