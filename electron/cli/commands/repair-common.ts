/**
 * What every repair command shares: diagnose the store with the evidence options, plan the
 * action, print the plan (dry run by default), apply only with --apply, print the result, and
 * map refusals to exit 5. Human output by default, --json for scripts.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { RepairAction, RepairPlan, RepairResult, ReplayItem } from '../../../shared/model';
import { DiagnoseInputError } from '../../engine/diagnose';
import { createS3Client, OfflineEvidenceError } from '../../engine/s3';
import { ConfigError } from '../../engine/fluentbit';
import { applyPlan, planAction, pickTarget, RefusedError, ActionInputError, type ActionOptions, type DiagnosisContext } from '../../engine/repair';
import { addEvidenceOptions, readEvidenceOptions, runDiagnosisFromCli, type EvidenceCliOptions } from '../evidence-options';
import { escapeField as e } from '../../../shared/escape';
import { cancelOnSigint, clearProgress, CliError, EXIT, printJson, printText, progressLine } from '../output';

export interface RepairCliOptions extends EvidenceCliOptions {
  apply?: boolean;
  json?: boolean;
  force?: boolean;
}

/** --apply, --json, --force, and (unless `noEvidence`) the diagnose evidence options. */
export function addRepairOptions(cmd: Command, noEvidence = false): Command {
  if (!noEvidence) addEvidenceOptions(cmd);
  return cmd
    .option('--apply', 'do it (default: print the plan only)')
    .option('--json', 'machine-readable output')
    .option('--force', 'override the running-Fluent-Bit check and the never-below-safe rule (loudly)');
}

export function parseIntOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v))) throw new CliError(`${name} ${v}: not a non-negative integer`, EXIT.USAGE);
  return Number(v);
}

function blocking(plan: RepairPlan, force?: boolean) {
  return plan.refusals.filter((r) => !r.forceable || !force);
}

export function formatPlan(plan: RepairPlan & { replayItems?: ReplayItem[] }, force?: boolean): string {
  const b = blocking(plan, force);
  // what stops the plan comes first: the operator must not read a plan as if it will run
  const lines: string[] = [
    ...b.map((r) => `${plan.action} REFUSED: ${e(r.reason)}${r.forceable ? ' (--force overrides)' : ''}`),
    `${plan.action}: ${e(plan.summary)}`,
  ];
  if (plan.rootPath) lines.push(`Root: ${e(plan.rootPath)}`);
  if (plan.why.length) lines.push('Why:');
  for (const w of plan.why) lines.push(`  - ${e(w)}`);
  if (plan.steps.length) {
    lines.push('Plan:');
    plan.steps.forEach((s, i) => {
      lines.push(`  ${i + 1}. ${s.kind} ${e(s.target)}`);
      lines.push(`     ${e(s.description)}`);
      if (s.before !== undefined || s.after !== undefined)
        lines.push(
          `     before: ${s.before === null || s.before === undefined ? '(absent)' : e(JSON.stringify(s.before))}  after: ${s.after === null || s.after === undefined ? '(absent)' : e(JSON.stringify(s.after))}`,
        );
    });
  }
  const skipped = plan.replayItems?.filter((i) => i.state === 'skipped') ?? [];
  if (skipped.length) lines.push('Skipped:');
  for (const i of skipped) lines.push(`  - ${e(i.chunkPath)}: ${e(i.message)}`);
  if (plan.warnings.length) lines.push('Warnings:');
  for (const w of plan.warnings) lines.push(`  ! ${e(w)}`);
  if (plan.refusals.length) lines.push('Refused:');
  for (const r of plan.refusals) lines.push(`  ✗ ${e(r.reason)}${r.forceable ? (force ? ' (overridden by --force)' : ' (--force overrides)') : ''}`);
  if (b.length) lines.push('Nothing can be applied until the refusals above are resolved.');
  return lines.join('\n') + '\n';
}

export function formatResult(r: RepairResult & { items?: ReplayItem[] }): string {
  const lines = [`${r.action}: ${e(r.summary)}`];
  for (const s of r.steps) lines.push(`  ${s.ok ? '✓' : '✗'} ${s.step.kind} ${e(s.step.target)}: ${e(s.message)}`);
  if (r.warnings.length) lines.push('Warnings:');
  for (const w of r.warnings) lines.push(`  ! ${e(w)}`);
  if (r.undoId) lines.push(`Journal entry: ${r.undoId}`);
  return lines.join('\n') + '\n';
}

/** The last line of a dry run: what to run next, only when it can work as printed. */
export function dryRunFooter(plan: RepairPlan, run: Pick<ActionRun, 'client' | 'opts'>): string {
  const head = 'Dry run: nothing was changed.';
  if (blocking(plan, run.opts.force).length) return `${head} Resolve the refusals above first.\n`;
  if (!plan.steps.length) return `${head} Nothing to apply.\n`;
  if (run.client === 'apply' && !run.opts.live)
    return `${head} Run again with --apply --live to do it (the upload needs the bucket; add --endpoint/--profile as needed).\n`;
  return `${head} Run again with --apply to do it.\n`;
}

export interface ActionRun {
  action: RepairAction;
  store: string;
  opts: RepairCliOptions;
  actionOptions?: ActionOptions;
  /** Needs a live S3 client to plan (multipart, recover-versions) or to apply (replay). */
  client?: 'plan' | 'apply' | null;
  concurrency?: number;
}

export async function runRepairAction(run: ActionRun): Promise<void> {
  const { opts } = run;
  const ac = cancelOnSigint();
  if (opts.force)
    process.stderr.write('WARNING: --force given: refusals that protect your data (Fluent Bit running, index below the safe value) are overridden.\n');
  let ctx: DiagnosisContext;
  let client = null;
  let plan: RepairPlan | null = null;
  try {
    if (run.action === 'undo') {
      // a path that is not there is unreadable input (exit 2), as for every other command
      if (!existsSync(run.store)) throw new CliError(`${run.store}: no such file or directory`, EXIT.USAGE);
      ctx = { storePath: run.store, report: null as never, config: null, evidence: new Map(), diagnosis: null as never };
    } else {
      const ev = readEvidenceOptions(opts);
      const d = await runDiagnosisFromCli(run.store, opts, ac.signal);
      ctx = { storePath: run.store, ...d };
      const wantClient = run.client === 'plan' || (run.client === 'apply' && opts.apply);
      if (wantClient) {
        if (!opts.live)
          throw new CliError(
            `${run.action}${run.client === 'apply' ? ' --apply' : ''} needs the bucket: add --live (and --endpoint/--profile as needed)`,
            EXIT.USAGE,
          );
        const t = pickTarget(ctx, { outputId: ev.outputId }, run.action !== 'multipart' && run.action !== 'recover-versions');
        client = createS3Client({
          profile: opts.profile ?? t.s3?.profile ?? undefined,
          region: opts.region ?? t.s3?.region,
          endpoint: opts.endpoint ?? t.s3?.endpoint ?? undefined,
          pathStyle: opts.pathStyle ?? true,
        });
      }
      run.actionOptions = { ...run.actionOptions, outputId: ev.outputId ?? run.actionOptions?.outputId };
    }
    plan = await planAction(run.action, ctx, { ...run.actionOptions, force: opts.force, client, signal: ac.signal });
    if (!opts.apply) {
      if (opts.json) printJson({ dryRun: true, plan });
      else printText(formatPlan(plan, opts.force) + dryRunFooter(plan, run));
      if (blocking(plan, opts.force).length) process.exitCode = EXIT.REFUSED;
      return;
    }
    if (!opts.json) printText(formatPlan(plan, opts.force));
    const result = await applyPlan(plan, {
      force: opts.force,
      client,
      concurrency: run.concurrency,
      signal: ac.signal,
      onProgress: (p) => progressLine(`${p.task} ${p.done}/${p.total ?? '?'} ${p.current ?? ''}`),
    });
    clearProgress();
    if (opts.json) printJson({ dryRun: false, plan, result });
    // A plan with nothing to do already said so; don't repeat the same line as its result.
    else if (plan.steps.length || result.summary !== plan.summary || result.steps.length || result.warnings.length) printText(formatResult(result));
    if (result.steps.some((s) => !s.ok) || (result.applied && !result.verified)) process.exitCode = EXIT.FAILED;
  } catch (err) {
    clearProgress();
    let out: unknown = err;
    if (err instanceof RefusedError) out = new CliError(err.message, EXIT.REFUSED);
    else if (err instanceof DiagnoseInputError || err instanceof ActionInputError || err instanceof ConfigError || err instanceof OfflineEvidenceError)
      out = new CliError(err.message, EXIT.USAGE);
    // --json: scripts always get one JSON document on stdout, also when refused or failed.
    if (opts.json) {
      const exitCode = out instanceof CliError ? out.exitCode : EXIT.FAILED;
      printJson({ dryRun: !opts.apply, ...(plan ? { plan } : {}), error: { exitCode, message: (out as Error)?.message ?? String(out) } });
    }
    throw out;
  } finally {
    client?.destroy();
  }
}
