/**
 * What the listing planner needs to know about an `s3_key_format` (docs/fluent-bit-store-format.md#key-format): its `/`-separated
 * segments, which are literal and which variable, a lenient matcher per segment and for whole
 * keys (a superset of what Fluent Bit can produce, so no real key is ever dropped), the UTC time
 * range a partition prefix covers, and whether keys sort by time from a given segment on.
 *
 * Tokens come from shared/keyformat; the matchers here are deliberately lenient (the planner only
 * prunes prefixes), unlike parseKey's exact ones.
 */
import { literalPrefix, s3FormOfFormat, tokenizeKeyFormat } from '../../../shared/keyformat';

export type FmtToken =
  | { kind: 'literal'; text: string }
  | { kind: 'tag'; part: number | null }
  | { kind: 'index' }
  | { kind: 'uuid' }
  | { kind: 'time'; conv: string; flag: string; width: number | null };

const NAMES = new Set('aAbBpP'.split(''));
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function pushLiteral(out: FmtToken[], text: string): void {
  const last = out.at(-1);
  if (last?.kind === 'literal') last.text += text;
  else out.push({ kind: 'literal', text });
}

/**
 * Tokens of the S3 key (the format without its leading `/`), from the one key-format tokenizer
 * (shared/keyformat): composites expanded, `%%`/`%z`/`%Z`/unknown conversions as the literal text
 * Fluent Bit writes (it always formats in UTC).
 */
export function tokenizeFormat(format: string): FmtToken[] {
  const out: FmtToken[] = [];
  for (const t of tokenizeKeyFormat(s3FormOfFormat(format))) {
    if (t.kind === 'literal') pushLiteral(out, t.text);
    else if (t.kind === 'tag') out.push({ kind: 'tag', part: null });
    else if (t.kind === 'tagPart') out.push({ kind: 'tag', part: t.n });
    else if (t.kind === 'time') out.push({ kind: 'time', conv: t.conv, flag: t.flag, width: t.width });
    else out.push(t);
  }
  return out;
}

export interface Segment {
  tokens: FmtToken[];
  /** Text before the first variable (the whole segment when literal). */
  literalHead: string;
  isLiteral: boolean;
  hasTag: boolean;
  hasTime: boolean;
  /** A tag may contain `/` here (only with `tagMayContainSlash`): the walk must stop. */
  unbounded: boolean;
  /** Anchored matcher of one path component. */
  regex: RegExp;
  /** Time conversion of each capturing group of `regex`. */
  groups: string[];
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function tokenPattern(t: FmtToken, slashInTag: boolean): string {
  switch (t.kind) {
    case 'literal':
      return esc(t.text);
    case 'tag':
      return slashInTag ? '(?:.+)' : '(?:[^/]+)';
    case 'index':
      return '(?:\\d+)';
    case 'uuid':
      return '(?:[0-9A-Za-z]{8})';
    case 'time':
      if (NAMES.has(t.conv)) return '([A-Za-z]+)';
      return '( *[+-]?\\d+)';
  }
}

export interface SegmentOptions {
  tagMayContainSlash?: boolean;
}

export function splitSegments(format: string, opts: SegmentOptions = {}): Segment[] {
  const segs: FmtToken[][] = [[]];
  for (const t of tokenizeFormat(format)) {
    if (t.kind !== 'literal') {
      segs.at(-1)!.push(t);
      continue;
    }
    t.text.split('/').forEach((piece, i) => {
      if (i > 0) segs.push([]);
      if (piece) pushLiteral(segs.at(-1)!, piece);
    });
  }
  return segs.map((tokens) => {
    const first = tokens.findIndex((t) => t.kind !== 'literal');
    const hasTag = tokens.some((t) => t.kind === 'tag');
    const slash = !!opts.tagMayContainSlash && hasTag;
    return {
      tokens,
      literalHead: tokens
        .slice(0, first < 0 ? tokens.length : first)
        .map((t) => (t.kind === 'literal' ? t.text : ''))
        .join(''),
      isLiteral: first < 0,
      hasTag,
      hasTime: tokens.some((t) => t.kind === 'time'),
      unbounded: slash,
      regex: new RegExp(`^${tokens.map((t) => tokenPattern(t, slash)).join('')}$`, 's'),
      groups: tokens.flatMap((t) => (t.kind === 'time' ? [t.conv] : [])),
    };
  });
}

/** Matcher of a whole S3 key (with the optional `-object<8>` PutObject suffix when it can occur). */
export function keyMatcher(format: string, opts: SegmentOptions = {}): RegExp {
  const tokens = tokenizeFormat(format);
  const suffix = tokens.some((t) => t.kind === 'index' || t.kind === 'uuid') ? '' : '(?:-object[0-9A-Za-z]{8})?';
  return new RegExp(`^${tokens.map((t) => tokenPattern(t, !!opts.tagMayContainSlash)).join('')}${suffix}$`, 's');
}

/** Literal text before the first variable: the narrowest prefix every key of the format has. */
export const formatLiteralPrefix = literalPrefix;

// ───────────── time ranges of partitions ─────────────

export type TimeFields = Partial<Record<string, number>>;

/** Time conversions captured by a segment match, as numbers (month names → 1..12). */
export function capturedTime(seg: Segment, m: RegExpExecArray): TimeFields {
  const out: TimeFields = {};
  seg.groups.forEach((conv, i) => {
    const raw = m[i + 1]?.trim() ?? '';
    if (conv === 'b' || conv === 'B') {
      const idx = MONTHS.indexOf(raw.slice(0, 3).toLowerCase());
      if (idx >= 0) out.m = idx + 1;
    } else if (/^[+-]?\d+$/.test(raw)) {
      const v = Number(raw);
      const key = conv === 'e' ? 'd' : conv === 'k' ? 'H' : conv;
      if (out[key] !== undefined && out[key] !== v) out.conflict = 1;
      out[key] = v;
    }
  });
  return out;
}

/** [start, end) in ms of the UTC window a set of captured fields pins down; null when unknown. */
export function timeRange(f: TimeFields): { start: number; end: number } | null {
  if (f.conflict) return null;
  if (f.s !== undefined) return { start: f.s * 1000, end: f.s * 1000 + 1000 };
  let year = f.Y;
  if (year === undefined && f.y !== undefined) year = f.C !== undefined ? f.C * 100 + f.y : f.y < 69 ? 2000 + f.y : 1900 + f.y;
  if (year === undefined) return null;
  const chain: [number | undefined, number][] = [];
  let start: number;
  let end: number;
  if (f.m !== undefined) {
    start = Date.UTC(year, f.m - 1, 1);
    end = Date.UTC(year, f.m, 1);
    if (f.d === undefined) return { start, end };
    start = Date.UTC(year, f.m - 1, f.d);
  } else if (f.j !== undefined) {
    start = Date.UTC(year, 0, f.j);
  } else {
    return { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) };
  }
  end = start + 86_400_000;
  chain.push([f.H, 3_600_000], [f.M, 60_000], [f.S, 1000]);
  for (const [v, unit] of chain) {
    if (v === undefined) break;
    start += v * unit;
    end = start + unit;
  }
  return { start, end };
}

// ───────────── time-ordered keys (range scans) ─────────────

const CHAIN = ['Y', 'm', 'd', 'H', 'M', 'S'];
const WIDTH: Record<string, number> = { Y: 4, m: 2, d: 2, H: 2, M: 2, S: 2 };

export interface TimeChain {
  /** Tokens from the segment start up to and including the last chain conversion. */
  tokens: FmtToken[];
  /** Finest conversion of the chain (e.g. `H`). */
  resolution: string;
}

/**
 * From segment `i` on, do keys sort by time? True when, after an optional literal head, the format
 * continues with zero-padded %Y[%m[%d[%H[%M[%S]]]]] in that order with only literals between.
 */
export function timeChainAt(segments: Segment[], i: number): TimeChain | null {
  const tokens: FmtToken[] = [];
  let next = 0;
  let lastChainAt = -1;
  for (let s = i; s < segments.length; s++) {
    if (s > i) tokens.push({ kind: 'literal', text: '/' });
    for (const t of segments[s].tokens) {
      if (t.kind === 'literal') {
        tokens.push(t);
        continue;
      }
      const fixed = t.kind === 'time' && !t.flag && (t.width === null || t.width === WIDTH[t.conv]);
      if (fixed && CHAIN.indexOf(t.conv) === next) {
        tokens.push(t);
        lastChainAt = tokens.length - 1;
        next++;
        continue;
      }
      return lastChainAt < 0 ? null : { tokens: tokens.slice(0, lastChainAt + 1), resolution: CHAIN[next - 1] };
    }
  }
  return lastChainAt < 0 ? null : { tokens: tokens.slice(0, lastChainAt + 1), resolution: CHAIN[next - 1] };
}

/** The chain rendered at `t` (UTC), e.g. `2026/11/29/18` — keys of partitions at or after `t` sort above it. */
export function renderChain(chain: TimeChain, t: Date): string {
  const v: Record<string, number> = {
    Y: t.getUTCFullYear(),
    m: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    H: t.getUTCHours(),
    M: t.getUTCMinutes(),
    S: t.getUTCSeconds(),
  };
  return chain.tokens
    .map((tok) => (tok.kind === 'literal' ? tok.text : tok.kind === 'time' ? String(v[tok.conv]).padStart(WIDTH[tok.conv], '0') : ''))
    .join('');
}
