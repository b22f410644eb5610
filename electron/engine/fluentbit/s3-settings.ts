/** S3 output settings with Fluent Bit's defaults (docs/fluent-bit-store-format.md#layout). */
import type { S3OutputSettings } from '../../../shared/model';
import { DEFAULT_KEY_FORMAT, DEFAULT_TAG_DELIMITERS } from '../../../shared/keyformat';

export const DEFAULT_STORE_DIR = '/tmp/fluent-bit/s3';
export const DEFAULT_TOTAL_FILE_SIZE = 100_000_000;
export const DEFAULT_UPLOAD_CHUNK_SIZE = 5_242_880;
/** Below this total_file_size, use_put_object is forced on (docs/fluent-bit-store-format.md#layout). */
export const PUT_OBJECT_FORCED_BELOW = 10 * 1024 * 1024;
const COMPRESSIONS = ['none', 'gzip', 'zstd', 'snappy', 'arrow', 'parquet'] as const;

/** `flb_utils_size_to_bytes`: decimal units K/KB, M/MB, G/GB (1000-based), `false` = 0. Null when invalid. */
export function sizeToBytes(text: string): number | null {
  const s = text.trim();
  if (!s) return null;
  if (s.toLowerCase() === 'false') return 0;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-zA-Z]{0,2})$/.exec(s);
  if (!m) return null;
  const val = Number(m[1]);
  const unit = m[2].toUpperCase();
  if (!unit) return Math.trunc(val);
  if (unit.length === 2 && unit[1] !== 'B') return null;
  const mult = unit[0] === 'K' ? 1e3 : unit[0] === 'M' ? 1e6 : unit[0] === 'G' ? 1e9 : null;
  return mult === null ? null : Math.trunc(val * mult);
}

/** `flb_utils_bool`: true/on/yes, false/off/no (case-insensitive). Null when neither. */
export function parseBool(text: string): boolean | null {
  const v = text.trim().toLowerCase();
  if (v === 'true' || v === 'on' || v === 'yes' || v === '1') return true;
  if (v === 'false' || v === 'off' || v === 'no' || v === '0') return false;
  return null;
}

export function buildS3Settings(props: Record<string, string>, warn: (message: string) => void): S3OutputSettings | null {
  const bucket = props['bucket'];
  if (!bucket) {
    warn('S3 output has no bucket: Fluent Bit refuses to start it');
    return null;
  }
  const bool = (key: string, def: boolean): boolean => {
    if (props[key] === undefined) return def;
    const b = parseBool(props[key]);
    if (b === null) warn(`${key}: ${JSON.stringify(props[key])} is not a boolean; using ${def}`);
    return b ?? def;
  };
  const size = (key: string, def: number): number => {
    if (props[key] === undefined) return def;
    const n = sizeToBytes(props[key]);
    if (n === null || n < 0) warn(`${key}: ${JSON.stringify(props[key])} is not a size; using ${def}`);
    return n === null || n < 0 ? def : n;
  };
  const storeDir = props['store_dir'] || DEFAULT_STORE_DIR;
  const userFormat = props['s3_key_format'];
  if (userFormat !== undefined && !userFormat.startsWith('/')) warn(`s3_key_format must start with '/': Fluent Bit refuses to start (${userFormat})`);
  const s3KeyFormat = userFormat || DEFAULT_KEY_FORMAT;
  const totalFileSize = size('total_file_size', DEFAULT_TOTAL_FILE_SIZE);
  const usePutObject = bool('use_put_object', false);
  let compression: S3OutputSettings['compression'] = 'none';
  if (props['compression']) {
    const c = props['compression'].toLowerCase();
    if ((COMPRESSIONS as readonly string[]).includes(c)) compression = c as S3OutputSettings['compression'];
    else warn(`compression: unknown value ${JSON.stringify(props['compression'])}`);
  }
  let retryLimit: number | null = null;
  if (props['retry_limit'] !== undefined) {
    const r = props['retry_limit'].trim().toLowerCase();
    if (r === 'no_limits' || r === 'false' || r === 'off') retryLimit = null;
    else if (r === 'no_retries') retryLimit = 0;
    else if (/^\d+$/.test(r)) retryLimit = Number(r);
    else warn(`retry_limit: ${JSON.stringify(props['retry_limit'])} is not a number`);
  }
  return {
    bucket,
    region: props['region'] || 'us-east-1',
    endpoint: props['endpoint'] || null,
    storeDir,
    rootPath: `${storeDir}/${bucket}`,
    s3KeyFormat,
    keyFormatIsDefault: !userFormat,
    tagDelimiters: props['s3_key_format_tag_delimiters'] || DEFAULT_TAG_DELIMITERS,
    usePutObject,
    usePutObjectEffective: usePutObject || totalFileSize < PUT_OBJECT_FORCED_BELOW,
    compression,
    staticFilePath: bool('static_file_path', false),
    profile: props['profile'] || null,
    roleArn: props['role_arn'] || null,
    totalFileSize,
    uploadChunkSize: size('upload_chunk_size', DEFAULT_UPLOAD_CHUNK_SIZE),
    retryLimit,
    // $INDEX counts only in a user-supplied format (docs/fluent-bit-store-format.md#the-index-file); the default has none anyway
    hasIndex: !!userFormat && userFormat.includes('$INDEX'),
  };
}

/** Every property out_s3 (and any output) accepts that is near a setting Store Doctor reads: never reported as a typo. */
const KNOWN_NEAR = new Set([
  'bucket',
  'region',
  'endpoint',
  'sts_endpoint',
  'profile',
  'role_arn',
  'external_id',
  'upload_timeout',
  'total_file_size',
  'upload_chunk_size',
  'store_dir',
  'store_dir_limit_size',
  's3_key_format',
  's3_key_format_tag_delimiters',
  'static_file_path',
  'use_put_object',
  'send_content_md5',
  'compression',
  'content_type',
  'canned_acl',
  'storage_class',
  'auto_retry_requests',
  'log_key',
  'preserve_data_ordering',
  'json_date_key',
  'json_date_format',
  'retry_limit',
  'name',
  'match',
  'match_regex',
  'alias',
]);
/** The settings whose silent default would change what Store Doctor concludes. */
const WATCHED = [
  'bucket',
  'region',
  'endpoint',
  'profile',
  'store_dir',
  's3_key_format',
  's3_key_format_tag_delimiters',
  'total_file_size',
  'upload_chunk_size',
  'use_put_object',
  'compression',
  'static_file_path',
  'retry_limit',
  'role_arn',
];

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * A misspelt S3 setting (`s3_key_formt`): Fluent Bit refuses to start with an unknown property,
 * and Store Doctor would silently use the default. Only near misses of the settings it reads.
 */
export function s3PropertyTypo(key: string): string | null {
  const k = key.toLowerCase();
  if (KNOWN_NEAR.has(k) || k.includes('.')) return null;
  const near = WATCHED.find((w) => editDistance(k, w) <= (w.length <= 6 ? 1 : 2));
  return near
    ? `unknown property ${JSON.stringify(key)} (did you mean ${near}?): Fluent Bit refuses to start with an unknown property, and Store Doctor uses the default of ${near}`
    : null;
}
