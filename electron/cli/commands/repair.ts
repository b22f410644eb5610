/**
 * Repair commands: `repair-index`, `protect-index`, `restore-index`, `undo`, `multipart`,
 * `recover-versions`. Each prints its plan and acts only with --apply; --json for scripts.
 * Exit codes: 0 ok / plan ok, 5 refused, 2 bad usage, 1 failed.
 */
import { Option, type Command } from 'commander';
import { addRepairOptions, parseIntOption, runRepairAction, type RepairCliOptions } from './repair-common';
import * as path from 'node:path';
import { CliError, EXIT } from '../output';

/** The shadow folder as an absolute path (the session takes it from the command line only). */
const shadow = (dir: string | undefined) => (dir === undefined ? undefined : path.resolve(dir));

export function registerRepair(program: Command): void {
  addRepairOptions(
    program
      .command('repair-index <store>')
      .description('set seq_index_<id> to the safe next $INDEX (from the bucket evidence), atomically, with undo')
      .option('--value <N>', 'use this next index instead (never below the safe value without --force)'),
  ).action(async (store: string, opts: RepairCliOptions & { value?: string }) => {
    const value = parseIntOption('--value', opts.value);
    await runRepairAction({ action: 'repair-index', store, opts, request: value !== undefined ? { value } : {} });
  });

  addRepairOptions(
    program
      .command('protect-index <store>')
      .description('protect the index from the next graceful stop: a marker chunk in sequence/, or a shadow copy outside store_dir')
      .addOption(new Option('--method <method>', 'marker | shadow (default: a marker where it is safe, else a shadow copy)').choices(['marker', 'shadow']))
      .option('--shadow-dir <dir>', 'shadow folder (default ~/.local/state/store-doctor/shadow/<hash of root>/)'),
  ).action(async (store: string, opts: RepairCliOptions & { method?: 'marker' | 'shadow'; shadowDir?: string }) => {
    await runRepairAction({ action: 'protect-index', store, opts, request: { method: opts.method, shadowDir: shadow(opts.shadowDir) } });
  });

  addRepairOptions(
    program
      .command('restore-index <store>')
      .description('before Fluent Bit starts (ExecStartPre, init container): put back the highest of shadow copy, disk and bucket evidence')
      .option('--shadow-dir <dir>', 'shadow folder (default ~/.local/state/store-doctor/shadow/<hash of root>/)'),
  ).action(async (store: string, opts: RepairCliOptions & { shadowDir?: string }) => {
    await runRepairAction({ action: 'restore-index', store, opts, request: { shadowDir: shadow(opts.shadowDir) } });
  });

  addRepairOptions(
    program.command('undo <store>').description('undo the last applied action on this store (restores previous bytes or absence exactly)'),
    true,
  ).action(async (store: string, opts: RepairCliOptions) => {
    await runRepairAction({ action: 'undo', store, opts });
  });

  addRepairOptions(
    program
      .command('multipart <store>')
      .description('settle multipart uploads: complete (recorded parts that match ListParts) or abort; needs --live')
      .option('--complete', 'complete every upload with its matching parts')
      .option('--abort', 'abort every upload of a local record')
      .option('--abort-orphans', 'also abort server uploads that have no local record')
      .option('--prefix <prefix>', 'only server uploads under this key prefix'),
  ).action(async (store: string, opts: RepairCliOptions & { complete?: boolean; abort?: boolean; abortOrphans?: boolean; prefix?: string }) => {
    if (opts.complete && opts.abort) throw new CliError('give --complete or --abort, not both', EXIT.USAGE);
    await runRepairAction({
      action: 'multipart',
      store,
      opts,
      live: 'plan',
      request: { multipartDecision: opts.complete ? 'complete' : opts.abort ? 'abort' : undefined, abortOrphans: opts.abortOrphans, prefix: opts.prefix },
    });
  });

  addRepairOptions(
    program
      .command('recover-versions <store>')
      .description('copy overwritten (non-current) object versions to new keys under a recovery prefix, create-only, with a manifest; needs --live')
      .option('--prefix <prefix>', 'only keys under this prefix')
      .option('--recovery-prefix <prefix>', 'where the copies go (default store-doctor-recovered/<time>/)'),
  ).action(async (store: string, opts: RepairCliOptions & { prefix?: string; recoveryPrefix?: string }) => {
    await runRepairAction({
      action: 'recover-versions',
      store,
      opts,
      live: 'plan',
      request: { prefix: opts.prefix, recoveryPrefix: opts.recoveryPrefix },
    });
  });
}
