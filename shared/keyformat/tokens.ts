/**
 * Tokens of an `s3_key_format`: literal text, `$TAG`, `$TAG[n]` (n < 10), `$INDEX`, `$UUID` and
 * strftime conversions. Used to parse keys back, to analyse collisions and to plan listings.
 * (Rendering does not use tokens: it replays Fluent Bit's textual passes exactly.)
 */
import { COMPOSITE_CONVERSIONS, readConversion } from './strftime';

export type KeyToken =
  | { kind: 'literal'; text: string }
  | { kind: 'tag' }
  | { kind: 'tagPart'; n: number }
  | { kind: 'index' }
  | { kind: 'uuid' }
  | { kind: 'time'; conv: string; flag: string; width: number | null; text: string };

/**
 * Split a format into tokens. Composite conversions (`%F`, `%T`, `%D`, `%R`, `%c`, `%x`, `%X`,
 * `%r`) are expanded into their parts; `%%`, `%n`, `%t`, `%z`, `%Z` and unknown conversions become
 * the literal text Fluent Bit writes for them.
 */
export function tokenizeKeyFormat(format: string): KeyToken[] {
  const out: KeyToken[] = [];
  const lit = (t: string) => {
    const last = out[out.length - 1];
    if (last && last.kind === 'literal') last.text += t;
    else out.push({ kind: 'literal', text: t });
  };
  let i = 0;
  while (i < format.length) {
    const ch = format[i];
    if (ch === '$') {
      const m = /^\$TAG\[(\d)\]/.exec(format.slice(i, i + 7));
      if (m) {
        out.push({ kind: 'tagPart', n: Number(m[1]) });
        i += 7;
        continue;
      }
      if (format.startsWith('$TAG', i)) {
        out.push({ kind: 'tag' });
        i += 4;
        continue;
      }
      if (format.startsWith('$INDEX', i)) {
        out.push({ kind: 'index' });
        i += 6;
        continue;
      }
      if (format.startsWith('$UUID', i)) {
        out.push({ kind: 'uuid' });
        i += 5;
        continue;
      }
      lit(ch);
      i++;
      continue;
    }
    if (ch === '%') {
      const c = readConversion(format, i);
      i = c.end;
      if (!c.known) lit(c.text);
      else if (c.conv === '%') lit('%');
      else if (c.conv === 'n') lit('\n');
      else if (c.conv === 't') lit('\t');
      else if (c.conv === 'z') lit('+0000');
      else if (c.conv === 'Z') lit(c.flag.includes('#') ? 'gmt' : 'GMT');
      else if (COMPOSITE_CONVERSIONS[c.conv]) {
        for (const t of tokenizeKeyFormat(COMPOSITE_CONVERSIONS[c.conv])) {
          if (t.kind === 'literal') lit(t.text);
          else out.push(t);
        }
      } else out.push({ kind: 'time', conv: c.conv === 'h' ? 'b' : c.conv, flag: c.flag, width: c.width, text: c.text });
      continue;
    }
    lit(ch);
    i++;
  }
  return out;
}

/** Seconds covered by one value of a time conversion (its resolution). */
export const CONVERSION_RESOLUTION: Record<string, number> = {
  s: 1,
  S: 1,
  M: 60,
  H: 3600,
  k: 3600,
  I: 3600,
  l: 3600,
  p: 43_200,
  P: 43_200,
  d: 86_400,
  e: 86_400,
  j: 86_400,
  a: 86_400,
  A: 86_400,
  u: 86_400,
  w: 86_400,
  U: 604_800,
  W: 604_800,
  V: 604_800,
  m: 2_629_746,
  b: 2_629_746,
  B: 2_629_746,
  y: 31_556_952,
  Y: 31_556_952,
  g: 31_556_952,
  G: 31_556_952,
  C: 3_155_695_200,
};

/** The S3 key form of a format: Fluent Bit's formatted key minus its leading `/`. */
export function s3FormOfFormat(format: string): string {
  return format.startsWith('/') ? format.slice(1) : format;
}
