/**
 * `store-doctor salvage <storage.path | store_dir | bucket root> [--config <file>] [--apply] [--json] [--force]`: what the
 * engine buffer holds (backlog per input, the chunks Fluent Bit will reject, the storage limits),
 * then the plan to write a valid chunk in place of each rejected one; with --apply exactly that
 * plan, through the session (`storagePath.salvagePlan` / `storagePath.salvageApply`) like the app.
 * Given a store_dir or bucket root, the plan covers the chunks the S3 output rejects (no report).
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import type { StoragePathReport } from '../../../shared/model';
import { escapeField as e } from '../../../shared/escape';
import { blockingRefusals } from '../../../shared/refusals';
import { CliError, EXIT, printJson, printText } from '../output';
import { withSession } from '../session';
import { formatPlan, formatResult } from './repair-common';

interface SalvageOptions {
  undo?: boolean;
  config?: string;
  apply?: boolean;
  json?: boolean;
  force?: boolean;
}

export function formatStoragePath(r: StoragePathReport): string {
  const lines = [`storage.path ${e(r.path)}: ${r.totals.chunks} chunk(s), ${r.totals.records} record(s), ${r.totals.bytes} bytes`];
  for (const s of r.streams) {
    lines.push(`  ${e(s.name)}: ${s.chunks.length} chunk(s), ${s.records} record(s), oldest ${s.oldestTime ?? '-'}, newest ${s.newestTime ?? '-'}`);
    for (const c of s.chunks)
      lines.push(
        `    ${e(c.name)}  tag=${e(c.tag ?? '?')} ${c.eventType ?? 'legacy'} ${c.format} records=${c.records} crc=${c.crc}${c.tornBytes ? ` torn=${c.tornBytes}B` : ''}  ${e(c.fateText)}`,
      );
  }
  for (const i of r.ignored) lines.push(`  ignored ${e(i.path)}: ${e(i.reason)}`);
  if (r.findings.length) lines.push('Findings:');
  for (const f of r.findings) lines.push(`  - ${e(f)}`);
  return lines.join('\n') + '\n';
}

export function registerSalvage(program: Command): void {
  program
    .command('salvage [path]')
    .description(
      'write a valid chunk in place of each chunk Fluent Bit would reject in a storage.path (stale CRC after a crash, torn last record) or an S3 bucket root / store_dir (header longer than the file, wrong magic), with undo',
    )
    .option('--config <file>', 'the Fluent Bit config (storage.checksum and the storage limits)')
    .option('--undo', 'undo the last salvage of this folder instead (exact previous bytes)')
    .option('--apply', 'do it (default: print the plan only)')
    .option('--json', 'machine-readable output')
    .option('--force', 'override the forceable refusals (a process using the folder), loudly')
    .action(async (dir: string | undefined, opts: SalvageOptions) => {
      const configPath = opts.config ? path.resolve(opts.config) : undefined;
      if (dir === undefined && !configPath) throw new CliError('give the storage.path folder, or --config with [SERVICE] storage.path', EXIT.USAGE);
      if (opts.force) process.stderr.write('WARNING: --force given: a process using the folder does not stop the salvage.\n');
      await withSession(async (session) => {
        let p = dir === undefined ? '' : path.resolve(dir);
        if (!p) {
          // The folder from the config: [SERVICE] storage.path (YAML service.storage.path), relative to the config's folder.
          const config = await session.call('storagePath.configured', { configPath: configPath! });
          if (!config.path) throw new CliError(`${configPath} sets no [SERVICE] storage.path: give the folder`, EXIT.USAGE);
          p = config.path;
        }
        // A storage.path gives its report; else a store_dir or bucket root, opened as a store (no report).
        const report = await session.call('storagePath.open', { path: p, configPath }).catch(async (err: unknown) => {
          await session.call('store.open', { path: p, records: false }).catch(() => Promise.reject(err));
          return undefined;
        });
        const plan = opts.undo
          ? await session.call('storagePath.undoPlan', { path: p, force: opts.force })
          : await session.call('storagePath.salvagePlan', { path: p, configPath, force: opts.force });
        const blocked = blockingRefusals(plan.refusals, plan.forced).length > 0;
        if (!opts.apply || blocked || !plan.steps.length) {
          if (opts.json) printJson({ dryRun: true, report, plan });
          else {
            if (report) printText(formatStoragePath(report));
            printText(formatPlan(plan));
            printText(
              blocked
                ? 'Dry run: nothing was changed. Resolve the refusals above first.\n'
                : plan.steps.length
                  ? 'Dry run: nothing was changed. Run again with --apply to do it.\n'
                  : 'Nothing to apply.\n',
            );
          }
          if (blocked) process.exitCode = EXIT.REFUSED;
          return;
        }
        const result = await session.call('storagePath.salvageApply', { path: p, planId: plan.planId!, confirm: plan.confirm ?? '' });
        if (opts.json) printJson({ dryRun: false, report, plan, result });
        else printText(formatResult(result));
        if (result.steps.some((s) => !s.ok) || !result.verified) throw new CliError(`the ${result.action} did not verify`, EXIT.FAILED);
      });
    });
}
