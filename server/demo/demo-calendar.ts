/**
 * The demo's calendar: its dated products (monthly, quarterly, yearly forwards and futures, the PMC's
 * weekly products) roll with the date the demo is made, as a real exchange lists the next periods.
 *
 * fixtures/demo/exchange.json holds each dated product once, as a template: the product as listed on
 * the fixture's own dates (`GFWD-M-2027-01`, January 2027, traded 1 November to 30 December 2026).
 * On a date D (a Bucharest day) a template is moved forward by the fewest whole periods (n >= 0) that
 * make it still listed on D:
 *
 *  - month, quarter, year: its last trading day (`tradingEnd`) is D or later. On 6 December 2026 that
 *    is the template itself (M = 2027-01, Q = Q1 2027, Y = 2027); on 15 January 2027: M = 2027-02,
 *    Q = Q2 2027, Y = 2028; on 1 July 2027: M = 2027-08, Q = Q4 2027, Y = 2028. The OTC and transfer
 *    limit (15:00 the day before delivery) is then always at least a day ahead.
 *  - week (PMC): its delivery week has not ended (`deliveryEnd` is D or later): the demo shows the week
 *    in delivery, its auction over, as on the fixture's date (W49 up to Sunday 6 December 2026).
 *
 * Never backwards (n >= 0): before its dates a template is listed as it is, so tests on fixed clocks
 * before the fixture's limits see exactly the fixture. Moving a product by n periods rewrites its id,
 * code, names (ro, en), documents' file names and URLs, and its dates: a first of a month moves by whole
 * months, a last of a month stays the last of its month, any other date keeps its distance from the
 * delivery start (tradingEnd: two days before delivery); weeks move by 7 days. A moved product whose
 * trading would start after D starts on D (the demo lists it from the day it is made: a year product
 * in January). Day and hour products are not dated here (server/trading/asset-periods.ts rolls them).
 *
 * Pure: the date comes in, nothing is read.
 */

export type DemoPeriodKind = 'month' | 'quarter' | 'year' | 'week';

/** As much of a fixture asset as the calendar reads and rewrites. */
export interface DatedAsset {
  id: string;
  code: string;
  name: string;
  names: { ro: string; en: string };
  spec: {
    type: string;
    deliveryStart: string;
    deliveryEnd: string;
    tradingStart: string;
    tradingEnd: string;
    documents: Array<{ title: string; fileName: string; url: string }>;
  };
}

const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTHS_RO = ['ianuarie', 'februarie', 'martie', 'aprilie', 'mai', 'iunie', 'iulie', 'august', 'septembrie', 'octombrie', 'noiembrie', 'decembrie'];
const DAY_MS = 86_400_000;
/** Far more periods than any date of the demo's life needs: a guard against a template that never lists. */
const MAX_PERIODS = 1_200;

/** The Romanian name of a date's month (`ianuarie` for 2027-01-01), as the demo's texts spell it. */
export function romanianMonthOf(date: string): string {
  return MONTHS_RO[parts(date).month - 1]!;
}

/** The period kind of a dated product type, or null for the products the calendar leaves alone. */
export function periodKindOf(type: string): DemoPeriodKind | null {
  return type === 'month' || type === 'quarter' || type === 'year' || type === 'week' ? type : null;
}

function monthsOf(kind: Exclude<DemoPeriodKind, 'week'>): number {
  return kind === 'month' ? 1 : kind === 'quarter' ? 3 : 12;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function parts(date: string): { year: number; month: number; day: number } {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** A first of a month moved by whole months. */
function addMonths(date: string, months: number): string {
  const { year, month, day } = parts(date);
  const index = year * 12 + (month - 1) + months;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}-${pad(day)}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / DAY_MS);
}

/** ISO 8601 week number of a date (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(date: string): number {
  const at = Date.parse(`${date}T12:00:00Z`);
  const thursday = at + (3 - ((new Date(at).getUTCDay() + 6) % 7)) * DAY_MS;
  const yearStart = Date.UTC(new Date(thursday).getUTCFullYear(), 0, 1, 12);
  return Math.floor((thursday - yearStart) / DAY_MS / 7) + 1;
}

type Dates = Pick<DatedAsset['spec'], 'deliveryStart' | 'deliveryEnd' | 'tradingStart' | 'tradingEnd'>;

/** A template's dates moved by n periods (n >= 0). */
function shiftDates(kind: DemoPeriodKind, dates: Dates, n: number): Dates {
  if (kind === 'week') {
    return {
      deliveryStart: addDays(dates.deliveryStart, 7 * n),
      deliveryEnd: addDays(dates.deliveryEnd, 7 * n),
      tradingStart: addDays(dates.tradingStart, 7 * n),
      tradingEnd: addDays(dates.tradingEnd, 7 * n),
    };
  }
  const months = monthsOf(kind) * n;
  const deliveryStart = addMonths(dates.deliveryStart, months);
  const move = (date: string): string => {
    if (parts(date).day === 1) return addMonths(date, months);
    const next = addDays(date, 1);
    if (parts(next).day === 1) return addDays(addMonths(next, months), -1);
    return addDays(deliveryStart, daysBetween(dates.deliveryStart, date));
  };
  return { deliveryStart, deliveryEnd: move(dates.deliveryEnd), tradingStart: move(dates.tradingStart), tradingEnd: move(dates.tradingEnd) };
}

/** How many periods the template moves to be listed on `today` (a Bucharest date, YYYY-MM-DD). */
export function periodsToRoll(kind: DemoPeriodKind, dates: Dates, today: string): number {
  for (let n = 0; n <= MAX_PERIODS; n += 1) {
    const moved = shiftDates(kind, dates, n);
    if ((kind === 'week' ? moved.deliveryEnd : moved.tradingEnd) >= today) return n;
  }
  throw new Error(`demo calendar: no period of ${kind} listed on ${today}`);
}

/** The spellings of a period in ids, codes, names and file names: each is replaced by the same spelling of the new period. */
function spellings(kind: DemoPeriodKind, deliveryStart: string): string[] {
  const { year, month } = parts(deliveryStart);
  switch (kind) {
    case 'month':
      return [`${year}-${pad(month)}`, `${MONTHS_RO[month - 1]} ${year}`, `${MONTHS_EN[month - 1]} ${year}`];
    case 'quarter': {
      const quarter = Math.floor((month - 1) / 3) + 1;
      return [`Q${quarter}-${year}`, `Q${quarter} ${year}`, `trimestrul ${quarter} ${year}`];
    }
    case 'year':
      return [`Y-${year}`, `calendaristic ${year}`, `calendar ${year}`];
    case 'week': {
      const week = isoWeek(deliveryStart);
      return [`W${pad(week)}`, `săptămâna ${week}`, `week ${week}`];
    }
  }
}

function respell(text: string, from: string[], to: string[]): string {
  return from.reduce((result, spelling, index) => result.split(spelling).join(to[index]!), text);
}

/**
 * The concrete product a template is on `today` (a Bucharest date): the template itself when it is
 * still listed (or is not a dated product), otherwise a copy moved forward by whole periods.
 */
export function rollDatedAsset<T extends DatedAsset>(template: T, today: string): T {
  const kind = periodKindOf(template.spec.type);
  if (kind === null) return template;
  const n = periodsToRoll(kind, template.spec, today);
  if (n === 0) return template;
  const dates = shiftDates(kind, template.spec, n);
  const from = spellings(kind, template.spec.deliveryStart);
  const to = spellings(kind, dates.deliveryStart);
  const text = (value: string) => respell(value, from, to);
  const id = text(template.id);
  if (id === template.id) throw new Error(`demo calendar: ${template.id} does not spell its ${kind} as ${from[0]}`);
  return {
    ...template,
    id,
    code: text(template.code),
    name: text(template.name),
    names: { ...template.names, ro: text(template.names.ro), en: text(template.names.en) },
    spec: {
      ...template.spec,
      ...dates,
      tradingStart: dates.tradingStart > today ? today : dates.tradingStart,
      documents: template.spec.documents.map((document) => ({ ...document, fileName: text(document.fileName), url: text(document.url) })),
    },
  };
}
