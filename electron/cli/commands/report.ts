/**
 * `store-doctor report <store> [--config … evidence] --format json|markdown [--out file]`: the
 * same export as the app's "Export report" — JSON (scan + diagnosis) for tools, Markdown for a
 * support ticket. Prints to stdout unless `--out` names a file (never inside the store). On a
 * storage.path folder, that buffer's report; when the config sets a storage.path, the store's
 * report carries its section too.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { isInside, isStoragePath, realPathOf } from '../../engine';
import { addEvidenceOptions, openDiagnosed, readEvidenceOptions, type EvidenceCliOptions } from '../evidence-options';
import { escapeField } from '../../../shared/escape';
import { CliError, EXIT, printText } from '../output';
import { withSession } from '../session';

interface ReportCliOptions extends EvidenceCliOptions {
  format?: string;
  out?: string;
}

/** Refuse an --out inside the store being read (an archive's folder is fine). */
function checkOut(out: string, store: string): string {
  const abs = path.resolve(out);
  const storeReal = realPathOf(store);
  const outReal = realPathOf(abs);
  if (storeReal && outReal && fs.existsSync(store) && fs.statSync(store).isDirectory() && isInside(storeReal, outReal)) {
    throw new CliError(`--out ${out}: inside the store being read; write the report elsewhere`, EXIT.USAGE);
  }
  return abs;
}

export function registerReport(program: Command): void {
  const cmd = program
    .command('report')
    .description('Export a report of a store: JSON (scan + diagnosis) or Markdown (a support-ticket summary).')
    .argument('<store>', 'store_dir, one bucket root, a .tar/.tar.gz snapshot of either, or a storage.path folder');
  addEvidenceOptions(cmd)
    .option('--format <format>', 'json or markdown', 'markdown')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (store: string, opts: ReportCliOptions) => {
      const format = opts.format ?? 'markdown';
      if (format !== 'json' && format !== 'markdown') throw new CliError(`--format ${format}: use json or markdown`, EXIT.USAGE);
      readEvidenceOptions(opts); // validate the flags before touching --out
      const out = opts.out !== undefined ? checkOut(opts.out, store) : null;
      // A Fluent Bit engine buffer ([SERVICE] storage.path) gets its own report (backlog per input, rejected chunks, limits).
      const engineBuffer = await isStoragePath(path.resolve(store));
      const doc = await withSession(async (session) => {
        if (engineBuffer)
          return session.call('storagePath.export', { path: path.resolve(store), configPath: opts.config ? path.resolve(opts.config) : undefined, format });
        const d = await openDiagnosed(session, store, opts);
        return session.call('report.export', { storeId: d.opened.storeId, format });
      });
      if (out) {
        try {
          fs.writeFileSync(out, doc.text);
        } catch (e) {
          throw new CliError(`--out ${out}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'folder does not exist' : (e as Error).message}`, EXIT.FAILED);
        }
        printText(`store-doctor: wrote ${escapeField(out)}\n`, process.stderr);
      } else if (format === 'json') {
        process.stdout.write(doc.text.endsWith('\n') ? doc.text : `${doc.text}\n`);
      } else {
        printText(doc.text.endsWith('\n') ? doc.text : `${doc.text}\n`);
      }
    });
}
