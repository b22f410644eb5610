/**
 * Untrusted text (tags, file names, S3 keys, config values from a store or a listing) made safe for
 * a terminal or a Markdown report: every character that a terminal acts on or that reorders what
 * is shown is written as a visible escape instead —
 * - C0 controls U+0000–U+001F (ESC starts CSI/OSC sequences: `ESC[2J`, OSC titles, OSC-8 links;
 *   a raw newline or carriage return inside a field fakes a line), DEL U+007F;
 * - C1 controls U+0080–U+009F (U+009B is a one-character CSI, U+009D an OSC);
 * - bidirectional overrides and isolates U+202A–U+202E, U+2066–U+2069, the marks U+200E, U+200F,
 *   U+061C, and the line/paragraph separators U+2028, U+2029.
 * Characters below U+0100 become `\xNN`, the others `\u{NNNN}`. JSON output is not passed through
 * here: JSON.stringify escapes what a JSON reader needs, and JSON must stay exact.
 */

const FIELD = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const OUTPUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16).padStart(4, '0')}}`;
}

/** One field of human output (a name, a tag, a key, a message): every control character escaped, newlines too. */
export function escapeField(text: unknown): string {
  const s = typeof text === 'string' ? text : String(text ?? '');
  return s.replace(FIELD, visible);
}

/**
 * A whole text of human output, as a last line of defence: the same escapes, but newlines (and
 * tabs) that separate lines and columns are kept. Fields should already have gone through
 * {@link escapeField}, which also escapes their newlines.
 */
export function escapeOutput(text: string): string {
  return text.replace(OUTPUT, visible);
}
