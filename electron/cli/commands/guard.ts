/**
 * `store-doctor guard <store_dir> --config <conf> --state-dir D`: keep every `$INDEX` through
 * graceful stops (the guard daemon of engine/guard/, hosted here: flags, signals, the endpoint), with metrics, health and the node report
 * on `--metrics host:port`. `--once`: restore from the state folder (final values) and, where
 * given, bucket evidence (the higher wins) — for ExecStartPre and init containers; without either
 * it refuses to invent a value (exit 5).
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { version } from '../../../package.json';
import { escapeField } from '../../../shared/escape';
import {
  buildNodeReport,
  createGuardMetrics,
  Guard,
  readShadow,
  restoreLoop,
  shadowDirFor,
  watchStoragePath,
  type AttemptOutcome,
  type StoragePathWatch,
} from '../../engine/guard';
import { addEvidenceOptions, openDiagnosed, type EvidenceCliOptions } from '../evidence-options';
import { parseListen, startGuardServer } from '../guard/server';
import { cancelOnSigint, CliError, EXIT, printJson, printText } from '../output';
import { CliSession, withSession } from '../session';
import { applyAndReport, formatPlan } from './repair-common';
import type { NodeReport } from '../../../shared/fleet';

interface GuardCliOptions extends EvidenceCliOptions {
  stateDir: string;
  once?: boolean;
  dryRun?: boolean;
  metrics?: string | false;
  node?: string;
  marker?: boolean;
  pollMs?: string;
  wait?: string;
  json?: boolean;
}

function logLine(line: string): void {
  process.stderr.write(`store-doctor guard: ${new Date().toISOString()} ${escapeField(line)}\n`);
}

export async function runGuardOnce(store: string, opts: GuardCliOptions): Promise<void> {
  if (!opts.config) throw new CliError('guard --once needs --config: it restores the index of every $INDEX output', EXIT.USAGE);
  const waitMs = opts.wait === undefined ? 10_000 : Number(opts.wait) * 1000;
  if (!Number.isFinite(waitMs) || waitMs < 0 || waitMs > 600_000) throw new CliError(`--wait ${opts.wait}: give 0..600 seconds`, EXIT.USAGE);
  const ac = cancelOnSigint();
  await withSession(async (session) => {
    const d = await openDiagnosed(session, store, opts, ac.signal);
    const storeId = d.opened.storeId;
    const refused: string[] = [];
    const results: unknown[] = [];
    for (const o of d.config?.outputs ?? []) {
      if (!o.s3?.hasIndex) continue;
      if (d.outputId !== undefined && o.id !== d.outputId) continue;
      const shadowDir = shadowDirFor(opts.stateDir, o.s3.bucket);
      const root = d.opened.report.roots.find((r) => r.bucket === o.s3!.bucket);
      if (!root) {
        const kept = (await readShadow(shadowDir)).values.get(o.id) ?? null;
        if (kept !== null)
          refused.push(
            `${o.displayName}: the root of bucket ${o.s3.bucket} is not in ${store}, but the guard kept seq_index_${o.id}=${kept}: is this the store_dir Fluent Bit uses?`,
          );
        else if (!opts.json) printText(`${o.displayName}: no root for bucket ${o.s3.bucket} yet and no value kept: nothing to restore.\n`);
        continue;
      }
      // A refusal may be passing: the guard restoring the same file right now (its write lock, its
      // process), Fluent Bit still exiting. Planned again (the one restore loop and its retry policy,
      // engine/guard/restore-loop.ts) for up to --wait seconds; a missing value is final.
      const deadline = Date.now() + waitMs;
      const attempt = async (): Promise<AttemptOutcome> => {
        const plan = await session.call('repair.plan', {
          storeId,
          action: 'restore-index',
          outputId: o.id,
          shadowDir,
          ...(d.sources.live ? { connection: d.sources.live } : {}),
          at: d.diagnosis.at,
        });
        const unresolved = plan.details?.kind === 'restore' ? (plan.details.unresolved ?? []) : [];
        if (plan.refusals.length && !unresolved.length && Date.now() < deadline) return 'retry';
        if (!opts.json) printText(formatPlan(plan));
        if (unresolved.length)
          refused.push(
            `${o.displayName}: no value known for seq_index_${o.id} — no final value in ${shadowDir} and no bucket evidence: the guard refuses to invent one (give --listing or --live).`,
          );
        if (plan.refusals.length) refused.push(...plan.refusals.map((r) => `${o.displayName}: ${r.reason}`));
        if (plan.refusals.length || unresolved.length || !plan.steps.length || opts.dryRun) {
          results.push({ plan });
          return 'done';
        }
        let result;
        try {
          result = opts.json
            ? await session.call('repair.apply', { storeId, planId: plan.planId!, confirm: plan.confirm ?? '' })
            : await applyAndReport(session, storeId, plan, {}, ac.signal);
        } catch (err) {
          if (err instanceof CliError && err.exitCode === EXIT.REFUSED && Date.now() < deadline) return 'again';
          throw err;
        }
        if (!result.applied || !result.verified) process.exitCode = EXIT.FAILED;
        results.push({ plan, result });
        return 'done';
      };
      await restoreLoop({ attempt, going: () => true, wait: (ms) => new Promise((r) => setTimeout(r, ms)), deadline });
    }
    if (opts.json) printJson({ once: true, refused, results });
    if (refused.length) {
      for (const r of refused) process.stderr.write(`store-doctor guard --once: REFUSED: ${escapeField(r)}\n`);
      process.exitCode = EXIT.REFUSED;
    }
  });
}

export async function runGuard(store: string, opts: GuardCliOptions): Promise<void> {
  if (!opts.config) throw new CliError('guard needs --config: it guards the index of every $INDEX output of the config', EXIT.USAGE);
  if (opts.listing?.length || opts.versions?.length || opts.multipart?.length || opts.live)
    throw new CliError('bucket evidence (--listing, --live, …) is for guard --once; the long-running guard restores only final values', EXIT.USAGE);
  const pollMs = opts.pollMs === undefined ? 1000 : Number(opts.pollMs);
  if (!Number.isInteger(pollMs) || pollMs < 50 || pollMs > 60_000) throw new CliError(`--poll-ms ${opts.pollMs}: give 50..60000`, EXIT.USAGE);
  const listen = opts.metrics === false ? null : parseListenOrUsage(opts.metrics ?? '127.0.0.1:9464');
  // The guard daemon lives in the engine (engine/guard/); this door hosts it on its own session.
  const session = new CliSession();
  const guard = new Guard(
    {
      store: path.resolve(store),
      config: path.resolve(opts.config),
      stateDir: path.resolve(opts.stateDir),
      marker: opts.marker,
      pollMs,
      trace: process.env.STORE_DOCTOR_GUARD_TRACE === '1',
      log: logLine,
    },
    session,
  );
  let cached: { at: number; report: NodeReport } | null = null;
  // The config's [SERVICE] storage.path (engine buffer): its backlog per input for the metrics, once the config is loaded.
  let storagePath: StoragePathWatch | null = null;
  guard.onChange(() => {
    cached = null;
    if (!storagePath && guard.config) storagePath = watchStoragePath(guard.config, { pollMs, note: logLine });
  });
  const report = () => {
    if (!cached || Date.now() - cached.at > 250) cached = { at: Date.now(), report: buildNodeReport(guard, { node: opts.node, version }) };
    return cached.report;
  };
  const server = listen
    ? await startGuardServer(
        listen,
        createGuardMetrics(report, { rootsReplaced: () => guard.rootsReplaced(), storagePath: () => storagePath?.inputs() ?? [] }),
        report,
      ).catch((err: NodeJS.ErrnoException) => {
        throw new CliError(`--metrics ${listen.host}:${listen.port}: ${err.code === 'EADDRINUSE' ? 'the port is in use' : err.message}`, EXIT.FAILED);
      })
    : null;
  if (server) logLine(`metrics, health and report on ${server.url}/metrics ${server.url}/healthz ${server.url}/report.json`);
  // A long-running door logs an unexpected error and goes on guarding (each restore is retried).
  process.on('unhandledRejection', (err) => logLine(`internal error: ${(err as Error)?.stack ?? String(err)}`));
  const stopped = new Promise<void>((resolve) => {
    const stop = (sig: string) => {
      logLine(`${sig}: stopping`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  try {
    await Promise.race([guard.start(), stopped]);
    await stopped;
  } finally {
    (storagePath as StoragePathWatch | null)?.stop(); // set in the onChange callback
    await guard.stop();
    await server?.close();
  }
}

function parseListenOrUsage(text: string) {
  try {
    return parseListen(text);
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.USAGE);
  }
}

export function registerGuard(program: Command): void {
  addEvidenceOptions(
    program
      .command('guard <store_dir>')
      .description(
        'keep every $INDEX through graceful stops: watch seq_index files, keep each value in --state-dir, restore it when a graceful stop deletes sequence/',
      )
      .requiredOption('--state-dir <dir>', "the guard's own state, outside the store (survives the guard's restarts)")
      .option('--once', 'restore from the state folder (final values) and bucket evidence, then exit (ExecStartPre, init containers)')
      .option('--dry-run', 'with --once: print the plans, change nothing')
      .option(
        '--wait <seconds>',
        'with --once: plan again for this long while a restore is refused for a passing reason (the guard restoring, Fluent Bit exiting); default 10',
      )
      .option('--metrics <host:port>', '/metrics, /healthz and /report.json on this address (default 127.0.0.1:9464)')
      .option('--no-metrics', 'no HTTP endpoint')
      .option('--node <name>', 'node name in the report (default the host name)')
      .option('--marker', 'also keep a marker chunk in sequence/ where it is safe (every S3 output on the root uses $INDEX)')
      .option('--poll-ms <ms>', 'periodic check besides inotify (default 1000)')
      .option('--json', 'with --once: machine-readable output'),
  ).action(async (store: string, opts: GuardCliOptions) => {
    if (opts.once) await runGuardOnce(store, opts);
    else await runGuard(store, opts);
  });
}
