/**
 * The `s3_key_format` engine (pure, isomorphic): render a key exactly as Fluent Bit does, parse a
 * key back, analyse whether a reset `$INDEX` collides, and describe the format for listing
 * planners. fluent-bit-store-format.md#key-format of fluent-bit-store-format.md.
 *
 * Offers: renderKey, renderKeyDetailed, toS3Key, splitTag, parseKey, compileKeyFormat,
 * analyzeCollisions, keyTimeWindow, timeResolution, literalPrefix, keyFormatPrefixTemplate,
 * tokenizeKeyFormat, strftimeUtc, unknownConversions, DEFAULT_KEY_FORMAT.
 */
export { renderKey, renderKeyDetailed, toS3Key, splitTag, randomAlnum8, S3_KEY_SIZE, MAX_TAG_PARTS } from './keyformat/render';
export type { RenderKeyOptions, RenderedKey } from './keyformat/render';
export { parseKey, compileKeyFormat } from './keyformat/parse';
export type { ParseKeyOptions } from './keyformat/parse';
export { analyzeCollisions, keyTimeWindow, timeResolution, literalPrefix, keyFormatPrefixTemplate } from './keyformat/collision';
export type { KeyFormatSegment, KeySegmentKind } from './keyformat/collision';
export { tokenizeKeyFormat, s3FormOfFormat } from './keyformat/tokens';
export type { KeyToken } from './keyformat/tokens';
export { strftimeUtc, unknownConversions } from './keyformat/strftime';

/** Fluent Bit's default `s3_key_format` (docs/fluent-bit-store-format.md#key-format). */
export const DEFAULT_KEY_FORMAT = '/fluent-bit-logs/$TAG/%Y/%m/%d/%H/%M/%S';
export const DEFAULT_TAG_DELIMITERS = '.';
