/**
 * Render an `s3_key_format` exactly as Fluent Bit's `flb_get_s3_key()` + `s3_put_object()` do
 * (docs/fluent-bit-store-format.md#key-format): textual passes in order, each over the previous result.
 */
import { strftimeUtc, unknownConversions } from './strftime';

export const S3_KEY_SIZE = 1024;
export const MAX_TAG_PARTS = 10;
const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export interface RenderKeyOptions {
  tag: string;
  /** The `$INDEX` value (the persisted value before the increment). Default 0. */
  index?: number | bigint;
  /** Key time (first record time, or the restart time for old buffers): formatted in UTC. */
  time: Date;
  /** The 8-character `$UUID` text; random when omitted. */
  uuid?: string;
  /** `s3_key_format_tag_delimiters`, default `.`. */
  tagDelimiters?: string;
  /** The key is for PutObject (only then the `-object<8>` suffix can be appended). */
  putObject?: boolean;
  /** `static_file_path on` suppresses the PutObject suffix. */
  staticFilePath?: boolean;
  /** The 8 characters after `-object`; random when omitted. */
  randomSuffix?: string;
}

export interface RenderedKey {
  /** Formatted key with its leading `/`, as Fluent Bit logs it and stores it in multipart records. */
  key: string;
  /** What Fluent Bit would warn about (`[s3_key] …`). */
  warnings: string[];
}

/** 8 random characters of [0-9a-zA-Z] (as `flb_sts_session_name()` keeps them). */
export function randomAlnum8(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  let s = '';
  for (const b of bytes) s += ALNUM[b % 62];
  return s;
}

/** `strtok_r(tag, delimiters)`: runs of delimiters collapse, no empty tokens. */
export function splitTag(tag: string, delimiters = '.'): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of tag) {
    if (delimiters.includes(ch)) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function replaceAll(s: string, find: string, by: string): string {
  return s.split(find).join(by);
}

/** Render with Fluent Bit's warnings. */
export function renderKeyDetailed(format: string, opts: RenderKeyOptions): RenderedKey {
  const warnings: string[] = [];
  const delimiters = opts.tagDelimiters ?? '.';
  const tag = opts.tag;
  if (format.length > S3_KEY_SIZE) warnings.push('Object key length is longer than the 1024 character limit.');
  let key = format;
  if (key.includes('$TAG[') && ![...delimiters].some((d) => tag.includes(d))) {
    warnings.push(`Invalid Tag delimiter: does not exist in tag. tag=${tag}, format=${format}`);
  }
  // 1. $TAG[n]: token i replaces every `$TAG[i]`, for i < 10 while tokens remain
  const parts = splitTag(tag, delimiters);
  for (let i = 0; i < parts.length && i < MAX_TAG_PARTS; i++) key = replaceAll(key, `$TAG[${i}]`, parts[i]);
  if (key.includes('$TAG[')) {
    warnings.push(
      `Invalid / Out of bounds tag part: At most 10 tag parts ($TAG[0] - $TAG[9]) can be processed. tag=${tag}, format=${format}, delimiters=${delimiters}`,
    );
  }
  // 2. $TAG: the whole tag (this also rewrites a leftover `$TAG[n]` into `<tag>[n]`)
  key = replaceAll(key, '$TAG', tag);
  // 3. $INDEX, only when the *format* has it
  if (format.includes('$INDEX')) key = replaceAll(key, '$INDEX', BigInt.asUintN(64, BigInt(opts.index ?? 0)).toString());
  // 4. $UUID: one random string per key build (drawn only when the key has one: replay renders thousands)
  if (opts.uuid !== undefined || key.includes('$UUID')) {
    const uuid = opts.uuid ?? randomAlnum8();
    if (!/^[0-9A-Za-z]{8}$/.test(uuid)) throw new Error(`uuid must be 8 characters of [0-9a-zA-Z], got ${JSON.stringify(uuid)}`);
    key = replaceAll(key, '$UUID', uuid);
  }
  // 5. strftime in UTC over the whole string (glibc copies unknown conversions as written)
  for (const u of unknownConversions(key)) warnings.push(`unknown strftime conversion ${u}: copied into the key as written`);
  const formatted = strftimeUtc(key, opts.time);
  if (formatted.length >= S3_KEY_SIZE) {
    warnings.push("Object key length is longer than the 1024 character limit (strftime overflow: Fluent Bit's key is undefined or empty).");
  }
  key = formatted;
  // fluent-bit-store-format.md#key-format: PutObject suffix
  if (opts.putObject && !format.includes('$UUID') && !opts.staticFilePath && !format.includes('$INDEX') && key.length + 16 <= S3_KEY_SIZE) {
    const suffix = opts.randomSuffix ?? randomAlnum8();
    if (!/^[0-9A-Za-z]{8}$/.test(suffix)) throw new Error(`randomSuffix must be 8 characters of [0-9a-zA-Z]`);
    key += `-object${suffix}`;
  }
  return { key, warnings };
}

/** The formatted key WITH its leading `/` (docs/fluent-bit-store-format.md#key-format). */
export function renderKey(format: string, opts: RenderKeyOptions): string {
  return renderKeyDetailed(format, opts).key;
}

/** The S3 object key: the formatted key minus its leading `/` (docs/fluent-bit-store-format.md#key-format). */
export function toS3Key(formatted: string): string {
  return formatted.startsWith('/') ? formatted.slice(1) : formatted;
}
