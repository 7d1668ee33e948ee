/** COPY's text format (PostgreSQL's COPY, "Text Format"): these four characters are written as escapes. */
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPED = /[\\\t\n\r]/g;

/** One column's value in COPY's text format; null is `\N`. JSON text only ever needs its backslashes doubled. */
export function copyText(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (character) => ESCAPES[character]!) : value;
}
