/**
 * What distinguishes two keys of one format besides `$INDEX`, and therefore whether a reset
 * index makes Fluent Bit overwrite an existing object (docs/fluent-bit-store-format.md#the-index-file).
 * Also the listing helpers: literal prefix and path-segment template.
 */
import type { CollisionAnalysis, KeyParts } from '../model';
import { CONVERSION_RESOLUTION, s3FormOfFormat, tokenizeKeyFormat, type KeyToken } from './tokens';
import { timePattern } from './parse';

/** Literal text of the S3 key before the first variable (no leading `/`): the listing prefix. */
export function literalPrefix(format: string): string {
  const tokens = tokenizeKeyFormat(s3FormOfFormat(format));
  return tokens[0]?.kind === 'literal' ? tokens[0].text : '';
}

const DAY_FIELDS = new Set(['d', 'e', 'j']);
const MONTH_FIELDS = new Set(['m', 'b', 'B', 'j']);
const YEAR_FIELDS = new Set(['Y', 'y', 'G', 'g']);

/** Finest resolution, and whether the time fields pin down one absolute window (not periodic). */
export function timeResolution(format: string): { seconds: number | null; absolute: boolean; conversions: string[] } {
  const conv = tokenizeKeyFormat(s3FormOfFormat(format))
    .filter((t): t is Extract<KeyToken, { kind: 'time' }> => t.kind === 'time')
    .map((t) => t.conv);
  if (!conv.length) return { seconds: null, absolute: false, conversions: [] };
  const has = (s: Set<string> | string[]) => conv.some((c) => (Array.isArray(s) ? s.includes(c) : s.has(c)));
  if (conv.includes('s')) return { seconds: 1, absolute: true, conversions: conv };
  const seconds = conv.reduce((m, c) => Math.min(m, CONVERSION_RESOLUTION[c] ?? Infinity), Infinity);
  const hasYear = has(YEAR_FIELDS);
  const hasMonth = has(MONTH_FIELDS);
  const hasDay = has(DAY_FIELDS);
  const hasHour = has(['H', 'k']) || (has(['I', 'l']) && has(['p', 'P']));
  const hasMinute = conv.includes('M');
  let absolute = hasYear;
  if (seconds < 31_556_952) absolute &&= hasMonth;
  if (seconds < 2_629_746) absolute &&= hasDay;
  if (seconds < 86_400) absolute &&= hasHour;
  if (seconds < 3600) absolute &&= hasMinute;
  return { seconds: Number.isFinite(seconds) ? seconds : null, absolute, conversions: conv };
}

function describeSeconds(s: number): string {
  if (s <= 1) return 'second';
  if (s <= 60) return 'minute';
  if (s <= 3600) return 'hour';
  if (s <= 43_200) return 'half-day';
  if (s <= 86_400) return 'day';
  if (s <= 604_800) return 'week';
  if (s <= 2_629_746) return 'month';
  if (s <= 31_556_952) return 'year';
  return 'century';
}

/** The calendar levels, coarse to fine, and the conversions that give each. */
const LEVELS: { unit: string; convs: string[] }[] = [
  { unit: 'year', convs: ['Y', 'y', 'G', 'g'] },
  { unit: 'month', convs: ['m', 'b', 'B', 'j'] },
  { unit: 'day', convs: ['d', 'e', 'j'] },
  { unit: 'hour', convs: ['H', 'k'] },
  { unit: 'minute', convs: ['M'] },
  { unit: 'second', convs: ['S'] },
];

/**
 * How often periodic time fields render the same again (`%H` alone: every day; `%Y/%d`: every
 * month; `%I` without `%p`: every 12 hours). Null when it is not one calendar period.
 */
export function repeatPeriod(conversions: string[]): string | null {
  const has = (l: number) => LEVELS[l].convs.some((c) => conversions.includes(c));
  const twelve =
    !conversions.some((c) => LEVELS[3].convs.includes(c)) &&
    conversions.some((c) => c === 'I' || c === 'l') &&
    !conversions.some((c) => c === 'p' || c === 'P');
  let finest = -1;
  for (let l = 0; l < LEVELS.length; l++) if (has(l) || (l === 3 && twelve)) finest = l;
  if (finest < 0) return null;
  for (let l = finest - 1; l >= 0; l--) if (!has(l)) return `every ${LEVELS[l].unit}`;
  return twelve ? 'every 12 hours' : null;
}

export function analyzeCollisions(format: string, _tagDelimiters = '.'): CollisionAnalysis {
  const tokens = tokenizeKeyFormat(s3FormOfFormat(format));
  const hasIndex = tokens.some((t) => t.kind === 'index');
  const hasUuid = tokens.some((t) => t.kind === 'uuid');
  const hasTag = tokens.some((t) => t.kind === 'tag' || t.kind === 'tagPart');
  const res = timeResolution(format);
  const base = { format, hasIndex, hasUuid, hasTag, timeResolutionSeconds: res.seconds, literalPrefix: literalPrefix(format) };
  const tagText = hasTag ? ' with the same tag' : '';
  if (!hasIndex) {
    return {
      ...base,
      risk: 'never',
      riskText: 'no overwrite: no $INDEX in the key',
      explanation: hasUuid
        ? 'No $INDEX in the key: a reset index cannot cause an overwrite ($UUID makes every key unique).'
        : 'No $INDEX in the key: a reset index cannot cause an overwrite (PutObject keys also get a random -object suffix).',
    };
  }
  if (hasUuid) {
    return {
      ...base,
      risk: 'practically-never',
      riskText: 'practically none: $UUID in the key',
      explanation: 'Keys carry $UUID (8 random characters): a reused $INDEX collides only with a 1 in 62^8 chance.',
    };
  }
  if (res.seconds === null) {
    return {
      ...base,
      risk: 'always',
      riskText: hasTag ? 'same tag, at any time' : 'at any time',
      explanation: `Only $INDEX${hasTag ? ' and the tag' : ''} distinguish keys: after a reset, index N overwrites the existing object with index N${tagText}.`,
    };
  }
  if (!res.absolute) {
    return {
      ...base,
      risk: 'same-window',
      riskText: `${hasTag ? 'same tag, ' : ''}whenever the time fields repeat`,
      explanation: `Besides $INDEX${hasTag ? ' and the tag' : ''}, the key has time fields (${res.conversions.map((c) => '%' + c).join(' ')}) that repeat periodically${repeatPeriod(res.conversions) ? ` (${repeatPeriod(res.conversions)})` : ''}: a reused index overwrites a key${tagText} of any age whenever the time fields render the same again.`,
    };
  }
  if (res.seconds <= 1) {
    return {
      ...base,
      risk: 'practically-never',
      riskText: `${hasTag ? 'same tag, ' : ''}same second only`,
      explanation: `Keys include the time to the second: a reused index collides only${tagText} when the key time falls in the same second (UTC).`,
    };
  }
  return {
    ...base,
    risk: 'same-window',
    riskText: `${hasTag ? 'same tag, ' : ''}same ${describeSeconds(res.seconds)} only`,
    explanation: `Keys include the time only to the ${describeSeconds(res.seconds)}: a reused index overwrites an existing key${tagText} when the upload falls in the same ${describeSeconds(res.seconds)} (UTC).`,
  };
}

/**
 * The UTC time window a parsed key denotes: [start, end). Null when the key has no time fields
 * or they are periodic (e.g. `%H` without a date).
 */
export function keyTimeWindow(format: string, parts: KeyParts): { start: Date; end: Date } | null {
  const t = parts.time;
  if (!t) return null;
  if (t.epoch !== undefined) return { start: new Date(t.epoch * 1000), end: new Date((t.epoch + 1) * 1000) };
  const res = timeResolution(format);
  if (!res.absolute || t.year === undefined || res.seconds === null) return null;
  const start = Date.UTC(t.year, (t.month ?? 1) - 1, t.day ?? 1, t.hour ?? 0, t.minute ?? 0, t.second ?? 0);
  const s = res.seconds;
  let end: number;
  if (s >= 31_556_952) end = Date.UTC(t.year + 1, 0, 1);
  else if (s >= 2_629_746) end = Date.UTC(t.year, t.month ?? 12, 1);
  else end = start + s * 1000;
  return { start: new Date(start), end: new Date(end) };
}

export type KeySegmentKind = 'literal' | 'time' | 'tag' | 'index' | 'uuid' | 'mixed';

/** One `/`-separated segment of the S3 key form of a format. */
export interface KeyFormatSegment {
  /** The segment of the format as written (e.g. `%Y`, `$TAG`, `segment_$INDEX`). */
  text: string;
  kind: KeySegmentKind;
  hasTime: boolean;
  hasTag: boolean;
  hasIndex: boolean;
  hasUuid: boolean;
  /** Time conversions in the segment (`Y`, `m`, …). */
  timeConversions: string[];
  /** Regex source matching the rendered segment (no anchors, no `/`). */
  pattern: string;
  /** Last segment: the object name rather than a "folder". */
  last: boolean;
}

const escRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The S3 key form of a format as path segments, so a listing planner can list the literal prefix
 * and then discover time/tag partitions with `Delimiter: '/'`, segment by segment.
 */
export function keyFormatPrefixTemplate(format: string, tagDelimiters = '.'): KeyFormatSegment[] {
  const texts = s3FormOfFormat(format).split('/');
  return texts.map((text, i) => {
    const tokens = tokenizeKeyFormat(text);
    const hasTime = tokens.some((t) => t.kind === 'time');
    const hasTag = tokens.some((t) => t.kind === 'tag' || t.kind === 'tagPart');
    const hasIndex = tokens.some((t) => t.kind === 'index');
    const hasUuid = tokens.some((t) => t.kind === 'uuid');
    const kinds = [hasTime && 'time', hasTag && 'tag', hasIndex && 'index', hasUuid && 'uuid'].filter(Boolean) as KeySegmentKind[];
    const kind: KeySegmentKind = kinds.length === 0 ? 'literal' : kinds.length === 1 ? kinds[0] : 'mixed';
    const partChars = tagDelimiters ? `[^/${escRe(tagDelimiters)}]+` : '[^/]+';
    const pattern = tokens
      .map((t) => {
        if (t.kind === 'literal') return escRe(t.text);
        if (t.kind === 'tag') return '[^/]*';
        if (t.kind === 'tagPart') return `(?:${partChars}|[^/]*\\[${t.n}\\])`;
        if (t.kind === 'index') return '(?:0|[1-9]\\d*)';
        if (t.kind === 'uuid') return '[0-9A-Za-z]{8}';
        return `(?:${timePattern(t)})`;
      })
      .join('');
    const timeConversions = tokens.filter((t): t is Extract<KeyToken, { kind: 'time' }> => t.kind === 'time').map((t) => t.conv);
    return { text, kind, hasTime, hasTag, hasIndex, hasUuid, timeConversions, pattern, last: i === texts.length - 1 };
  });
}
