/**
 * Messages of the order ticket's own validation (machines/order-ticket.machine.ts); spread into en.ts
 * and ro.ts. Each states the rule with its step or bound (issue 11), the numbers in the locale's
 * format (src/i18n/format-error.ts displayParams). No final stop: the currency or unit may be absent.
 */
export const ticketEn = {
  'validation.priceStep': 'Price must be a multiple of {step} {currency}',
  'validation.priceMinimum': 'Price must be at least {min} {currency}',
  'validation.priceTooManyDigits': 'Price may have at most {maxDigits, plural, one {# digit} other {# digits}} before the decimal point',
  'validation.quantityStep': 'Quantity must be a multiple of {step} {unit}',
  'validation.quantityRange': 'Quantity must be between {min} and {max} {unit}',
  'validation.quantityMinimum': 'Quantity must be at least {min} {unit}',
  'validation.contractCount': 'The number of contracts must be a whole number, at least 1',
};

export const ticketRo: Record<keyof typeof ticketEn, string> = {
  'validation.priceStep': 'Prețul trebuie să fie multiplu de {step} {currency}',
  'validation.priceMinimum': 'Prețul trebuie să fie de cel puțin {min} {currency}',
  'validation.priceTooManyDigits': 'Prețul poate avea cel mult {maxDigits, plural, one {o cifră} few {# cifre} other {# de cifre}} înainte de virgulă',
  'validation.quantityStep': 'Cantitatea trebuie să fie multiplu de {step} {unit}',
  'validation.quantityRange': 'Cantitatea trebuie să fie între {min} și {max} {unit}',
  'validation.quantityMinimum': 'Cantitatea trebuie să fie de cel puțin {min} {unit}',
  'validation.contractCount': 'Numărul de contracte trebuie să fie un număr întreg, cel puțin 1',
};
