/**
 * `sequence/index_metadata/seq_index_<id>` (docs/fluent-bit-store-format.md#the-index-file): read the value exactly as Fluent
 * Bit's `fscanf("%" PRIu64)` does — skip leading whitespace, optional sign (`-` wraps around like
 * strtoull), decimal digits, saturate at 2^64-1 on overflow — and say what Fluent Bit will do.
 */
import type { SeqIndexInfo } from '../../../shared/model';
import { rawText } from './names';
import { describeFsError } from './errors';
import { SafeReadError } from './safe-read';
import type { TreeNode } from './tree';

const U64 = 1n << 64n;
const MAX = U64 - 1n;

export interface ParsedSeqIndex {
  value: number | null;
  valueText: string | null;
  status: SeqIndexInfo['status'];
  message: string;
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Parse seq_index bytes like fscanf("%" PRIu64). `fileSize` may exceed `bytes.length` (capped read). */
export function parseSeqIndex(bytes: Uint8Array, fileSize = bytes.length): ParsedSeqIndex {
  if (fileSize === 0) {
    return {
      value: null,
      valueText: null,
      status: 'empty',
      message: 'Empty file: Fluent Bit fails to read it and refuses to start ("Failed to read from sequential index metadata file").',
    };
  }
  let i = 0;
  while (i < bytes.length && isSpace(bytes[i])) i++;
  const leading = i;
  let neg = false;
  if (bytes[i] === 0x2d || bytes[i] === 0x2b) {
    neg = bytes[i] === 0x2d;
    i++;
  }
  const digitsStart = i;
  while (i < bytes.length && bytes[i] >= 0x30 && bytes[i] <= 0x39) i++;
  if (i === digitsStart) {
    return {
      value: null,
      valueText: null,
      status: 'not-a-number',
      message: 'No decimal number at the start of the file: Fluent Bit fails to read it and refuses to start.',
    };
  }
  let v = BigInt(Buffer.from(bytes.subarray(digitsStart, i)).toString('latin1'));
  const overflow = v > MAX;
  if (overflow) v = MAX;
  else if (neg) v = (U64 - v) % U64;
  const valueText = v.toString();
  const value = v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null;
  const notes: string[] = [];
  if (leading > 0) notes.push('leading whitespace is skipped');
  if (neg && !overflow && valueText !== '0') notes.push(`the minus sign wraps around like strtoull, giving ${valueText}`);
  if (overflow) notes.push('the number is above 2^64-1 and saturates at 18446744073709551615');
  if (value === null) notes.push('the value is above 2^53 and is shown exactly in valueText');
  const trailing = i < fileSize;
  const tail = Buffer.from(bytes.subarray(i));
  const onlyNewline = trailing && fileSize === bytes.length && tail.length === 1 && tail[0] === 0x0a;
  if (trailing) {
    notes.unshift(
      onlyNewline
        ? 'a trailing newline follows; Fluent Bit ignores it (its next write drops it)'
        : `${fileSize - i} byte${fileSize - i === 1 ? '' : 's'} after the number (${rawText(tail.subarray(0, 32))}${tail.length > 32 ? '…' : ''}) are ignored`,
    );
  }
  const message = `Fluent Bit continues at index ${valueText}${notes.length ? `; ${notes.join('; ')}` : ''}.`;
  return { value, valueText, status: trailing ? 'trailing-bytes' : 'ok', message };
}

const RAW_CAP = 4096;
/** Bytes of a file that is not read as an index (too large) shown in the report. */
const PREVIEW = 64;

/** Why a seq_index entry was not read as an index (store/safe-read.ts gave the reason). */
export interface SeqIndexFailure {
  status: 'unreadable' | 'not-regular' | 'too-large';
  /** The reason, naming the file, e.g. "…/seq_index_0: is a FIFO (named pipe), not a regular file". */
  message: string;
}

/** Largest seq_index file read (bytes); Fluent Bit writes at most 20 digits. */
export const SEQ_INDEX_MAX = 64 * 1024;

/**
 * Why a seq_index entry is not read as an index: a read error (SafeReadError or fs error), a file
 * above {@link SEQ_INDEX_MAX} (`tooLarge` = its size), or an entry that is not a regular file.
 */
export function seqFailureOf(shown: string, what: { error?: unknown; tooLarge?: number; node?: TreeNode }): SeqIndexFailure {
  if (what.tooLarge !== undefined) {
    return { status: 'too-large', message: `${shown}: is larger than 64 KiB (${what.tooLarge} bytes); only its first 64 KiB were read` };
  }
  const e = what.error;
  if (e instanceof SafeReadError) {
    const status = e.kind === 'too-large' ? 'too-large' : e.kind === 'io' ? 'unreadable' : 'not-regular';
    return { status, message: `${shown}: ${e.reason}` };
  }
  if (e !== undefined) return { status: 'unreadable', message: describeFsError(e, shown) };
  const n = what.node;
  if (n?.type === 'symlink') return { status: 'not-regular', message: `${shown}: is a symlink${n.linkTarget ? ` to ${n.linkTarget}` : ''} (not followed)` };
  if (n?.type === 'directory') return { status: 'not-regular', message: `${shown}: is a directory, not a file` };
  return { status: 'not-regular', message: `${shown}: is not a regular file (a FIFO, socket or device)` };
}

/**
 * Build the SeqIndexInfo of one file. `bytes` may be capped; `fileSize` is the real size. With
 * `failure` the file was not read as an index: its value is unknown (null) and the message says why.
 */
export function seqIndexInfo(
  fileName: string,
  relPath: string,
  bytes: Uint8Array,
  fileSize: number,
  mtime: string | null,
  failure?: SeqIndexFailure,
): SeqIndexInfo {
  const m = /^seq_index_(\d+)$/.exec(fileName);
  const outputId = m ? Number(m[1]) : null;
  const suffix = m ? '' : ' The suffix is not an output id, so no Fluent Bit output reads this file.';
  const id = outputId !== null && Number.isSafeInteger(outputId) ? outputId : null;
  if (failure) {
    const shown = failure.status === 'too-large' ? bytes.subarray(0, PREVIEW) : new Uint8Array(0);
    let message = `${failure.message}.`;
    if (failure.status === 'too-large') {
      message += ` Fluent Bit writes a few ASCII digits here, so this is not its file; by its first bytes: ${parseSeqIndex(bytes, fileSize).message}`;
    } else if (failure.status === 'not-regular') {
      message += ' Store Doctor does not open or follow it; Fluent Bit opens it with fopen (following a symlink, blocking on a FIFO).';
    }
    return {
      outputId: id,
      fileName,
      path: relPath,
      raw: rawText(shown) + (fileSize > shown.length ? '…' : ''),
      rawHex: Buffer.from(shown).toString('hex'),
      fileSize,
      value: null,
      valueText: null,
      status: failure.status,
      message: message + suffix,
      mtime,
    };
  }
  const shown = bytes.subarray(0, RAW_CAP);
  const parsed = parseSeqIndex(bytes, fileSize);
  return {
    outputId: id,
    fileName,
    path: relPath,
    raw: rawText(shown) + (bytes.length > RAW_CAP || fileSize > bytes.length ? '…' : ''),
    rawHex: Buffer.from(shown).toString('hex'),
    fileSize,
    value: parsed.value,
    valueText: parsed.valueText,
    status: parsed.status,
    message: parsed.message + suffix,
    mtime,
  };
}
