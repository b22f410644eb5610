/** What an exported report is, and Markdown-safe text from store data (export.ts, export-storage-path.ts). */
import { escapeField } from '../../../shared/escape';

export interface ExportedReport {
  fileName: string;
  mimeType: string;
  text: string;
}

/**
 * Markdown-safe inline text: no table breaks, no raw HTML, no control characters. Inside `code spans` (commands in
 * actions) entities are not decoded, so `<` stays as it is there and is escaped only outside.
 */
export function md(text: unknown): string {
  // Control characters (ESC sequences, C1, bidi overrides, newlines) from the store are shown escaped (shared/escape.ts).
  return escapeField(String(text ?? '').replace(/\r?\n/g, ' '))
    .replace(/\|/g, '\\|')
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('');
}
