/**
 * File names and metadata as text. Bytes that are not valid UTF-8 are shown as `\xNN` (all
 * non-ASCII bytes and backslashes of such a name are escaped, so the escaping is reversible).
 */
import { isUtf8 as nativeIsUtf8 } from 'node:buffer';

/** Strict UTF-8 validity (no overlongs, no surrogates), as `TextDecoder` with `fatal: true` decides it. */
export function isUtf8(b: Uint8Array): boolean {
  return nativeIsUtf8(b);
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}

/** Escape every byte outside printable ASCII, and backslashes, as `\xNN`. */
export function escapeBytes(b: Uint8Array, keepControls = false): string {
  let s = '';
  for (const c of b) s += (c >= 0x20 && c < 0x7f && c !== 0x5c) || (keepControls && c < 0x20) ? String.fromCharCode(c) : `\\x${hex2(c)}`;
  return s;
}

/** Name bytes → display text: the UTF-8 text when valid, else the escaped form. */
export function nameText(b: Uint8Array): { text: string; utf8: boolean } {
  if (isUtf8(b)) return { text: Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8'), utf8: true };
  return { text: escapeBytes(b), utf8: false };
}

/** Undo {@link escapeBytes} for a name that was escaped (contains `\xNN`). */
export function unescapeName(text: string): Buffer | null {
  if (!/\\x[0-9a-f]{2}/.test(text)) return null;
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === 'x' && /^[0-9a-f]{2}$/.test(text.slice(i + 2, i + 4))) {
      out.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      const code = text.charCodeAt(i);
      if (code > 0x7f) return null;
      out.push(code);
    }
  }
  return Buffer.from(out);
}

/** Metadata as text: UTF-8 text with control bytes kept, or escaped when not valid UTF-8. */
export function metaText(b: Uint8Array): string {
  return isUtf8(b) ? Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8') : escapeBytes(b, true);
}

/** File content as text with control bytes (and invalid UTF-8) escaped as `\xNN`. */
export function rawText(b: Uint8Array): string {
  if (!isUtf8(b)) return escapeBytes(b);
  return Buffer.from(b.buffer, b.byteOffset, b.length)
    .toString('utf8')
    .replace(/[\x00-\x1f\x7f\\]/g, (c) => `\\x${hex2(c.charCodeAt(0))}`);
}
