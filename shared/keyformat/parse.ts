/**
 * Parse an S3 key back against an `s3_key_format`: tag, tag parts, `$INDEX`, `$UUID`, UTC time
 * fields and the `-object<8>` PutObject suffix. Returns null when the key does not belong. An
 * `$INDEX` above 2^53 - 1 (up to 2^64 - 1) comes back exactly in `indexText`, without `index`.
 */
import type { KeyParts } from '../model';
import { MONTHS, WEEKDAYS } from './strftime';
import { s3FormOfFormat, tokenizeKeyFormat, type KeyToken } from './tokens';
import { splitTag } from './render';

export interface ParseKeyOptions {
  tagDelimiters?: string;
  /** Accept the `-object<8>` suffix (default: when the format has neither `$INDEX` nor `$UUID`). */
  allowSuffix?: boolean;
}

type Field = 'year' | 'year2' | 'century' | 'month' | 'day' | 'yday' | 'hour' | 'hour12' | 'ampm' | 'minute' | 'second' | 'epoch' | 'weekday' | 'other';

interface Group {
  kind: 'tag' | 'tagPart' | 'index' | 'uuid' | 'time';
  n?: number;
  conv?: string;
  field?: Field;
}

const FIELD_OF: Record<string, Field> = {
  Y: 'year',
  y: 'year2',
  C: 'century',
  m: 'month',
  b: 'month',
  B: 'month',
  d: 'day',
  e: 'day',
  j: 'yday',
  H: 'hour',
  k: 'hour',
  I: 'hour12',
  l: 'hour12',
  p: 'ampm',
  P: 'ampm',
  M: 'minute',
  S: 'second',
  s: 'epoch',
  a: 'weekday',
  A: 'weekday',
  u: 'other',
  w: 'other',
  U: 'other',
  W: 'other',
  V: 'other',
  g: 'other',
  G: 'other',
};

const UINT64_MAX = 2n ** 64n - 1n;

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Digits of a numeric conversion. Unpadded (`-`) fields are variable-width; they are matched lazily
 * so that, when a key is ambiguous (`%-H$INDEX` → "1512": hour 1 index 512, or hour 15 index 12),
 * `$INDEX` gets every digit it can: the highest reading, so a safe next index is never too low.
 * `maxDigits` null: unbounded (`%s`, `%Y`, `%G`).
 */
function numPattern(width: number, spacePad: boolean, flag: string, widthOverride: number | null, maxDigits: number | null = width): string {
  if (flag.includes('-')) return maxDigits === null ? '\\d+' : `\\d{1,${maxDigits}}?`;
  const w = widthOverride ?? width;
  if (flag.includes('_') || (spacePad && !flag.includes('0'))) return `[ \\d]{${w}}`;
  return w <= 1 ? (maxDigits === null ? '\\d+' : `\\d{1,${maxDigits}}?`) : `\\d{${w}}`;
}

/** Regex source for one time conversion (capturing group added by the caller). */
export function timePattern(t: Extract<KeyToken, { kind: 'time' }>): string {
  const nameAlt = (names: string[]) => names.map(esc).join('|');
  const ci = t.flag.includes('^') || t.flag.includes('#');
  const names = (xs: string[]) => (ci ? nameAlt(xs.map((x) => x.toUpperCase())) : nameAlt(xs));
  switch (t.conv) {
    case 'a':
      return names(WEEKDAYS.map((w) => w.slice(0, 3)));
    case 'A':
      return names(WEEKDAYS);
    case 'b':
      return names(MONTHS.map((m) => m.slice(0, 3)));
    case 'B':
      return names(MONTHS);
    case 'p':
      return t.flag.includes('#') ? 'am|pm' : 'AM|PM';
    case 'P':
      return t.flag.includes('^') ? 'AM|PM' : 'am|pm';
    case 'Y':
    case 'G':
      return numPattern(4, false, t.flag, t.width, null);
    case 's':
      return '\\d+';
    case 'j':
      return numPattern(3, false, t.flag, t.width);
    case 'e':
    case 'k':
    case 'l':
      return numPattern(2, true, t.flag, t.width);
    case 'u':
    case 'w':
      return numPattern(1, false, t.flag, t.width);
    default:
      return numPattern(2, false, t.flag, t.width);
  }
}

interface Compiled {
  regex: RegExp;
  groups: Group[];
  hasIndex: boolean;
  hasUuid: boolean;
}

const cache = new Map<string, Compiled>();

/** Build (and cache) the regex for a format. Exported for the S3 listing planner. */
export function compileKeyFormat(format: string, opts: ParseKeyOptions = {}): Compiled {
  const delimiters = opts.tagDelimiters ?? '.';
  const tokens = tokenizeKeyFormat(s3FormOfFormat(format));
  const hasIndex = tokens.some((t) => t.kind === 'index');
  const hasUuid = tokens.some((t) => t.kind === 'uuid');
  const allowSuffix = opts.allowSuffix ?? (!hasIndex && !hasUuid);
  const cacheKey = `${format}\u0000${delimiters}\u0000${allowSuffix}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const groups: Group[] = [];
  const first = new Map<string, number>();
  const partChars = delimiters ? `[^${esc(delimiters)}]+` : '[\\s\\S]+';
  let src = '^';
  const group = (id: string, g: Group, pattern: string) => {
    const seen = first.get(id);
    if (seen !== undefined) {
      src += `\\${seen}`;
      return;
    }
    groups.push(g);
    first.set(id, groups.length);
    src += `(${pattern})`;
  };
  for (const t of tokens) {
    if (t.kind === 'literal') src += esc(t.text);
    else if (t.kind === 'tag') group('tag', { kind: 'tag' }, '[\\s\\S]*?');
    // a part, or — when the tag has fewer parts — the `<tag>[n]` text the $TAG pass leaves (docs/fluent-bit-store-format.md#key-format)
    else if (t.kind === 'tagPart') group(`tag${t.n}`, { kind: 'tagPart', n: t.n }, `${partChars}|[\\s\\S]*?\\[${t.n}\\]`);
    else if (t.kind === 'index') group('index', { kind: 'index' }, '0|[1-9]\\d*');
    else if (t.kind === 'uuid') group('uuid', { kind: 'uuid' }, '[0-9A-Za-z]{8}');
    else group(`time${t.text}`, { kind: 'time', conv: t.conv, field: FIELD_OF[t.conv] ?? 'other' }, timePattern(t));
  }
  if (allowSuffix) {
    groups.push({ kind: 'uuid', n: -1 });
    src += '(?:-object([0-9A-Za-z]{8}))?';
  }
  src += '$';
  const compiled = { regex: new RegExp(src), groups, hasIndex, hasUuid };
  cache.set(cacheKey, compiled);
  return compiled;
}

function monthFromName(v: string): number {
  const i = MONTHS.findIndex((m) => m.toLowerCase().startsWith(v.toLowerCase().slice(0, 3)));
  return i + 1;
}

/**
 * Parse an S3 key (no leading `/`; a leading `/` is accepted when the format's S3 form has none)
 * against a format. Null when the key does not belong to the format or its fields disagree.
 */
export function parseKey(format: string, s3Key: string, opts: ParseKeyOptions = {}): KeyParts | null {
  const c = compileKeyFormat(format, opts);
  let m = c.regex.exec(s3Key);
  if (!m && s3Key.startsWith('/')) m = c.regex.exec(s3Key.slice(1));
  if (!m) return null;
  const delimiters = opts.tagDelimiters ?? '.';
  const parts: KeyParts = {};
  const f: Partial<Record<Field, number>> = {};
  const set = (field: Field, v: number): boolean => {
    if (field === 'other' || field === 'weekday') return true;
    if (f[field] !== undefined && f[field] !== v) return false;
    f[field] = v;
    return true;
  };
  for (let i = 0; i < c.groups.length; i++) {
    const g = c.groups[i];
    const v = m[i + 1];
    if (v === undefined) continue;
    if (g.kind === 'tag') parts.tag = v;
    else if (g.kind === 'tagPart') {
      const outOfRange = outOfRangeTag(v, g.n!, delimiters);
      if (outOfRange === null) (parts.tagParts ??= {})[g.n!] = v;
      else if (outOfRange === false || (parts.tag !== undefined && parts.tag !== outOfRange)) return null;
      else parts.tag = outOfRange;
    } else if (g.kind === 'index') {
      // Fluent Bit's $INDEX is a uint64 (PRIu64): beyond 2^53 - 1 it is kept exactly as text
      const n = Number(v);
      if (Number.isSafeInteger(n)) parts.index = n;
      else if (BigInt(v) <= UINT64_MAX) parts.indexText = v;
      else return null;
    } else if (g.kind === 'uuid') {
      if (g.n === -1) parts.suffix = v;
      else parts.uuid = v;
    } else {
      const field = g.field!;
      let n: number;
      if (g.conv === 'b' || g.conv === 'B') n = monthFromName(v);
      else if (g.conv === 'p' || g.conv === 'P') n = v.toLowerCase() === 'pm' ? 1 : 0;
      else if (g.conv === 'a' || g.conv === 'A') n = 0;
      else n = Number(v.trim());
      if (!set(field, n)) return null;
    }
  }
  if (parts.tag !== undefined && parts.tagParts) {
    const tokens = splitTag(parts.tag, delimiters);
    for (const [n, v] of Object.entries(parts.tagParts)) if (tokens[Number(n)] !== v) return null;
  }
  const time = resolveTime(f);
  if (time === null) return null;
  if (Object.keys(time).length) parts.time = time;
  return parts;
}

/**
 * A `$TAG[n]` value holding a delimiter can only be Fluent Bit's text for a part beyond the tag's
 * parts: `<tag>[n]`. Returns null for an ordinary part, the tag for that text, false otherwise.
 */
function outOfRangeTag(v: string, n: number, delimiters: string): string | null | false {
  if (![...v].some((ch) => delimiters.includes(ch))) return null;
  const suffix = `[${n}]`;
  if (!v.endsWith(suffix)) return false;
  const tag = v.slice(0, -suffix.length);
  return splitTag(tag, delimiters).length <= n ? tag : false;
}

/** Combine raw fields into UTC year/month/day/hour/minute/second; null when they contradict. */
function resolveTime(f: Partial<Record<Field, number>>): NonNullable<KeyParts['time']> | null {
  const t: NonNullable<KeyParts['time']> = {};
  let year = f.year;
  if (year === undefined && f.year2 !== undefined) {
    year = f.century !== undefined ? f.century * 100 + f.year2 : f.year2 < 69 ? 2000 + f.year2 : 1900 + f.year2;
  }
  if (year !== undefined) t.year = year;
  if (f.month !== undefined) {
    if (f.month < 1 || f.month > 12) return null;
    t.month = f.month;
  }
  if (f.day !== undefined) {
    if (f.day < 1 || f.day > 31) return null;
    t.day = f.day;
  }
  if (f.yday !== undefined && year !== undefined) {
    const d = new Date(Date.UTC(year, 0, f.yday));
    if (d.getUTCFullYear() !== year) return null;
    if ((t.month !== undefined && t.month !== d.getUTCMonth() + 1) || (t.day !== undefined && t.day !== d.getUTCDate())) return null;
    t.month = d.getUTCMonth() + 1;
    t.day = d.getUTCDate();
  }
  let hour = f.hour;
  if (f.hour12 !== undefined) {
    if (f.hour12 < 1 || f.hour12 > 12) return null;
    if (f.ampm !== undefined) {
      const h = (f.hour12 % 12) + (f.ampm ? 12 : 0);
      if (hour !== undefined && hour !== h) return null;
      hour = h;
    }
  }
  if (hour !== undefined) {
    if (hour > 23) return null;
    t.hour = hour;
  }
  if (f.minute !== undefined) {
    if (f.minute > 59) return null;
    t.minute = f.minute;
  }
  if (f.second !== undefined) {
    if (f.second > 60) return null;
    t.second = f.second;
  }
  if (f.epoch !== undefined) t.epoch = f.epoch;
  return t;
}
