/** Parsed S3 keys and the collision analysis of an `s3_key_format` (docs/fluent-bit-store-format.md#key-format). Part of the domain model (see ../model.ts). */

export interface KeyParts {
  tag?: string;
  tagParts?: Record<number, string>;
  index?: number;
  /** Exact decimal `$INDEX` when it is above 2^53 - 1 (up to 2^64 - 1); `index` is then absent. */
  indexText?: string;
  uuid?: string;
  /** UTC time fields present in the key. */
  time?: { year?: number; month?: number; day?: number; hour?: number; minute?: number; second?: number; epoch?: number };
  /** The `-object<8>` PutObject suffix when present. */
  suffix?: string;
}

export interface CollisionAnalysis {
  format: string;
  hasIndex: boolean;
  hasUuid: boolean;
  hasTag: boolean;
  /** Finest strftime resolution in the key, in seconds (null: no time in the key). */
  timeResolutionSeconds: number | null;
  /** `always` | `same-window` (same tag + same time window) | `practically-never` | `never`. */
  risk: 'always' | 'same-window' | 'practically-never' | 'never';
  /** `risk` in a few words that agree with `explanation` (e.g. "same tag, any time"), for labels and summaries. */
  riskText: string;
  /** One sentence on what distinguishes two keys besides `$INDEX`. */
  explanation: string;
  /** Literal text before the first variable (the listing prefix). */
  literalPrefix: string;
}
