/**
 * `store-doctor replay <store> --config <conf> [evidence] [--include-active] [--time T] --apply --live`:
 * send buffered chunks (old streams, quarantine/) create-only with the next free $INDEX, then move
 * them out of Fluent Bit's sight. Dry run prints the per-chunk plan. Resumes after a kill.
 */
import { Option, type Command } from 'commander';
import { addRepairOptions, parseIntOption, runRepairAction, type RepairCliOptions } from './repair-common';
import { CliError, EXIT } from '../output';

interface ReplayCliOptions extends RepairCliOptions {
  includeActive?: boolean;
  time?: string;
  compression?: string;
  concurrency?: string;
}

export function registerReplay(program: Command): void {
  addRepairOptions(
    program
      .command('replay <store>')
      .description('upload buffered chunks (old streams and quarantine/) create-only, then move them to .store-doctor/replayed/')
      .option('--include-active', 'also replay the active (newest) stream')
      .option('--time <ISO time>', 'key time for every chunk (default: its first record time)')
      .addOption(new Option('--compression <c>', "override the output's compression").choices(['none', 'gzip']))
      .option('--concurrency <n>', 'parallel uploads, 1 to 64 (default 10)'),
  ).action(async (store: string, opts: ReplayCliOptions) => {
    let time: string | undefined;
    if (opts.time !== undefined) {
      const t = new Date(opts.time);
      if (Number.isNaN(t.getTime())) throw new CliError(`--time ${opts.time}: not an ISO time`, EXIT.USAGE);
      time = t.toISOString();
    }
    const concurrency = parseIntOption('--concurrency', opts.concurrency);
    if (concurrency === 0 || (concurrency ?? 1) > 64) throw new CliError('--concurrency must be 1 to 64', EXIT.USAGE);
    await runRepairAction({
      action: 'replay',
      store,
      opts,
      live: 'apply',
      request: { includeActive: opts.includeActive, time, compression: opts.compression as 'none' | 'gzip' | undefined, concurrency },
    });
  });
}
