/** Messages of one feature (chat); spread into en.ts and ro.ts. Same keys in both (the type enforces it). */
export const chatEn = {
  'error.CHAT_RECIPIENT_UNKNOWN': 'There is no active broker {recipient} to write to.',
  'error.CHAT_MESSAGE_INVALID': 'A message must have between 1 and {maxLength} characters.',
  'error.CHAT_RATE_LIMITED': 'Too many messages. Try again in {retryAfterSeconds} s.',
} as const satisfies Record<string, string>;

export const chatRo: Record<keyof typeof chatEn, string> = {
  'error.CHAT_RECIPIENT_UNKNOWN': 'Nu există un broker activ {recipient} căruia să îi scrieți.',
  'error.CHAT_MESSAGE_INVALID': 'Un mesaj trebuie să aibă între 1 și {maxLength} caractere.',
  'error.CHAT_RATE_LIMITED': 'Prea multe mesaje. Încercați din nou peste {retryAfterSeconds} s.',
};
