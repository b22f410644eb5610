/**
 * strftime over UTC exactly as glibc formats a `struct tm` from `gmtime_r` in the C locale — the
 * last pass of Fluent Bit's key builder (docs/fluent-bit-store-format.md#key-format step 5). Isomorphic, no Node imports.
 *
 * Supported: every glibc conversion (a A b B c C d D e F g G h H I j k l m M n p P r R s S t T u U
 * V w W x X y Y z Z %) with the GNU flags `_ - 0 ^ #`, a width, and the `E`/`O` modifiers (ignored
 * in the C locale). Unknown conversions are copied as written, as glibc does (e.g. `%Q`, `%L`).
 */

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Conversions that expand to other conversions (C locale). */
export const COMPOSITE_CONVERSIONS: Record<string, string> = {
  c: '%a %b %e %H:%M:%S %Y',
  D: '%m/%d/%y',
  F: '%Y-%m-%d',
  r: '%I:%M:%S %p',
  R: '%H:%M',
  T: '%H:%M:%S',
  x: '%m/%d/%y',
  X: '%H:%M:%S',
};

export const KNOWN_CONVERSIONS = new Set('aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ%'.split(''));

/** One `%…` sequence as glibc reads it. `end` is the index after it. */
export interface Conversion {
  text: string;
  flag: string;
  width: number | null;
  conv: string;
  known: boolean;
  end: number;
}

/** Read the conversion that starts at `s[i] === '%'`. */
export function readConversion(s: string, i: number): Conversion {
  let j = i + 1;
  let flag = '';
  while (j < s.length && '_-0^#'.includes(s[j])) flag += s[j++];
  let widthText = '';
  while (j < s.length && s[j] >= '0' && s[j] <= '9') widthText += s[j++];
  while (j < s.length && (s[j] === 'E' || s[j] === 'O')) j++;
  if (j >= s.length) {
    // glibc: a lone `%` at the end (after any flags) is copied as written
    return { text: s.slice(i), flag, width: null, conv: '', known: false, end: s.length };
  }
  const conv = s[j];
  return { text: s.slice(i, j + 1), flag, width: widthText ? Number(widthText) : null, conv, known: KNOWN_CONVERSIONS.has(conv), end: j + 1 };
}

function dayOfYear(d: Date): number {
  return Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000);
}

/** ISO 8601 week-based year and week number. */
function isoWeek(d: Date): { year: number; week: number } {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const wd = (t.getUTCDay() + 6) % 7; // Monday = 0
  t.setUTCDate(t.getUTCDate() - wd + 3); // Thursday of this week
  const year = t.getUTCFullYear();
  const week = Math.floor((t.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return { year, week };
}

function pad(value: number, width: number, fill: '0' | ' ', flag: string, widthOverride: number | null): string {
  const neg = value < 0;
  let digits = String(Math.abs(value));
  let w = widthOverride ?? width;
  let f: string = fill;
  if (flag.includes('-')) return (neg ? '-' : '') + digits;
  if (flag.includes('_')) f = ' ';
  if (flag.includes('0')) f = '0';
  if (neg) w -= 1;
  if (f === '0') digits = digits.padStart(w, '0');
  else digits = digits.padStart(w, ' ');
  return (neg ? '-' : '') + digits;
}

function text(value: string, c: Conversion, swapToLower = false): string {
  let v = value;
  if (c.flag.includes('^')) v = v.toUpperCase();
  else if (c.flag.includes('#')) v = swapToLower ? v.toLowerCase() : v.toUpperCase();
  if (c.width !== null && v.length < c.width) v = v.padStart(c.width, c.flag.includes('0') ? '0' : ' ');
  return v;
}

/** Expand one known conversion for the UTC time `d`. */
export function formatConversion(c: Conversion, d: Date): string {
  const year = d.getUTCFullYear();
  const hour = d.getUTCHours();
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  const yday = dayOfYear(d);
  const wday = d.getUTCDay();
  const w = c.width;
  switch (c.conv) {
    case 'a':
      return text(WEEKDAYS[wday].slice(0, 3), c);
    case 'A':
      return text(WEEKDAYS[wday], c);
    case 'b':
    case 'h':
      return text(MONTHS[d.getUTCMonth()].slice(0, 3), c);
    case 'B':
      return text(MONTHS[d.getUTCMonth()], c);
    case 'C':
      return pad(Math.floor(year / 100), 2, '0', c.flag, w);
    case 'd':
      return pad(d.getUTCDate(), 2, '0', c.flag, w);
    case 'e':
      return pad(d.getUTCDate(), 2, ' ', c.flag, w);
    case 'g':
      return pad(((isoWeek(d).year % 100) + 100) % 100, 2, '0', c.flag, w);
    case 'G':
      return pad(isoWeek(d).year, 1, '0', c.flag, w);
    case 'H':
      return pad(hour, 2, '0', c.flag, w);
    case 'I':
      return pad(h12, 2, '0', c.flag, w);
    case 'j':
      return pad(yday + 1, 3, '0', c.flag, w);
    case 'k':
      return pad(hour, 2, ' ', c.flag, w);
    case 'l':
      return pad(h12, 2, ' ', c.flag, w);
    case 'm':
      return pad(d.getUTCMonth() + 1, 2, '0', c.flag, w);
    case 'M':
      return pad(d.getUTCMinutes(), 2, '0', c.flag, w);
    case 'n':
      return '\n';
    case 'p':
      return text(hour < 12 ? 'AM' : 'PM', c, true);
    case 'P':
      return text(hour < 12 ? 'am' : 'pm', c);
    case 's':
      return pad(Math.floor(d.getTime() / 1000), 1, '0', c.flag, w);
    case 'S':
      return pad(d.getUTCSeconds(), 2, '0', c.flag, w);
    case 't':
      return '\t';
    case 'u':
      return pad(wday === 0 ? 7 : wday, 1, '0', c.flag, w);
    case 'U':
      return pad(Math.floor((yday + 7 - wday) / 7), 2, '0', c.flag, w);
    case 'V':
      return pad(isoWeek(d).week, 2, '0', c.flag, w);
    case 'w':
      return pad(wday, 1, '0', c.flag, w);
    case 'W':
      return pad(Math.floor((yday + 7 - ((wday + 6) % 7)) / 7), 2, '0', c.flag, w);
    case 'y':
      return pad(((year % 100) + 100) % 100, 2, '0', c.flag, w);
    case 'Y':
      return pad(year, 1, '0', c.flag, w);
    case 'z':
      return '+0000';
    case 'Z':
      return text('GMT', c, true); // glibc's gmtime_r sets tm_zone to "GMT"
    case '%':
      return '%';
    default: {
      const composite = COMPOSITE_CONVERSIONS[c.conv];
      if (composite) return text(strftimeUtc(composite, d), c);
      return c.text;
    }
  }
}

/** glibc `strftime(fmt, gmtime_r(t))` in the C locale. */
export function strftimeUtc(format: string, d: Date): string {
  let out = '';
  let i = 0;
  while (i < format.length) {
    const p = format.indexOf('%', i);
    if (p < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, p);
    const c = readConversion(format, p);
    out += c.known ? formatConversion(c, d) : c.text;
    i = c.end;
  }
  return out;
}

/** Unknown `%` conversions in a format (copied literally by glibc), for warnings. */
export function unknownConversions(format: string): string[] {
  const found: string[] = [];
  for (let i = format.indexOf('%'); i >= 0 && i < format.length;) {
    const c = readConversion(format, i);
    if (!c.known) found.push(c.text);
    i = format.indexOf('%', c.end);
  }
  return found;
}
