/**
 * What every repair command shares, through the engine session like the app: open and diagnose
 * with the evidence options, `repair.plan`, print the plan (dry run by default), `repair.apply`
 * of exactly that plan with --apply, print the result; `--plan-out` saves the reviewed plan for
 * `store-doctor apply`. Refusals exit 5. Human output by default, --json for scripts.
 */
import type { Command } from 'commander';
import type { RepairPlanRequest } from '../../../shared/contract';
import type { RepairAction, RepairPlan, RepairResult, ReplayItem, S3ConnectionOptions } from '../../../shared/model';
import { escapeField as e } from '../../../shared/escape';
import { blockingRefusals } from '../../../shared/refusals';
import { addEvidenceOptions, openDiagnosed, type EvidenceCliOptions, type EvidenceSources } from '../evidence-options';
import { cancelOnSigint, clearProgress, CliError, EXIT, printJson, printText } from '../output';
import { showProgress } from '../progress';
import { withSession, type CliSession } from '../session';
import { writePlanFile } from './plan-file';

export interface RepairCliOptions extends EvidenceCliOptions {
  apply?: boolean;
  json?: boolean;
  force?: boolean;
  planOut?: string;
}

/** --apply, --json, --force, --plan-out and (unless `noEvidence`) the diagnose evidence options. */
export function addRepairOptions(cmd: Command, noEvidence = false): Command {
  if (!noEvidence) addEvidenceOptions(cmd);
  return cmd
    .option('--apply', 'do it (default: print the plan only)')
    .option('--plan-out <file>', 'save the plan to this file, to apply it later with `store-doctor apply <file>`')
    .option('--json', 'machine-readable output')
    .option('--force', 'override the forceable refusals (a process using the store, a value below the safe index), loudly');
}

export function parseIntOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v))) throw new CliError(`${name} ${v}: not a non-negative integer`, EXIT.USAGE);
  return Number(v);
}

function blocking(plan: RepairPlan) {
  return blockingRefusals(plan.refusals, plan.forced);
}

export function formatPlan(plan: RepairPlan & { replayItems?: ReplayItem[] }): string {
  const b = blocking(plan);
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
  for (const i of skipped) lines.push(`  - ${e(i.chunkPath)}: ${e(i.message ?? '')}`);
  if (plan.warnings.length) lines.push('Warnings:');
  for (const w of plan.warnings) lines.push(`  ! ${e(w)}`);
  if (plan.refusals.length) lines.push('Refused:');
  for (const r of plan.refusals) lines.push(`  ✗ ${e(r.reason)}${r.forceable ? (plan.forced ? ' (overridden by --force)' : ' (--force overrides)') : ''}`);
  if (b.length) lines.push('Nothing can be applied until the refusals above are resolved.');
  return lines.join('\n') + '\n';
}

export function formatResult(r: RepairResult & { items?: ReplayItem[] }): string {
  const lines = [`${r.action}: ${e(r.summary)}`];
  for (const s of r.steps) lines.push(`  ${s.ok ? '✓' : '✗'} ${s.step.kind} ${e(s.step.target)}: ${e(s.message)}`);
  if (r.warnings.length) lines.push('Warnings:');
  for (const w of r.warnings) lines.push(`  ! ${e(w)}`);
  if (r.unsettled?.length) lines.push('Not settled:');
  for (const u of r.unsettled ?? []) lines.push(`  ✗ ${e(u)}`);
  if (r.undoId) lines.push(`Journal entry: ${r.undoId}`);
  return lines.join('\n') + '\n';
}

/** The last line of a dry run: what to run next, only when it can work as printed. */
export function dryRunFooter(plan: RepairPlan, needsLiveToApply: boolean, live: boolean, planOut?: string): string {
  const head = 'Dry run: nothing was changed.';
  if (blocking(plan).length) return `${head} Resolve the refusals above first.\n`;
  if (!plan.steps.length) return `${head} Nothing to apply.\n`;
  const saved = planOut ? ` The plan is saved in ${planOut}: \`store-doctor apply ${planOut}\` applies exactly it (refused if anything changed).` : '';
  if (needsLiveToApply && !live)
    return `${head} Run again with --apply --live to do it (the upload needs the bucket; add --endpoint/--profile as needed).${saved}\n`;
  return `${head} Run again with --apply to do it.${saved}\n`;
}

export interface ActionRun {
  action: RepairAction;
  store: string;
  opts: RepairCliOptions;
  /** Action-specific fields of the plan request (value, method, includeActive, …). */
  request?: Partial<RepairPlanRequest>;
  /** The bucket is needed to plan (multipart, recover-versions) or to apply (replay). */
  live?: 'plan' | 'apply' | null;
}

/** Apply a plan the session holds, print the result; exit 1 when a step failed or the result is not verified. */
export async function applyAndReport(
  session: CliSession,
  storeId: string,
  plan: RepairPlan,
  opts: { json?: boolean },
  signal: AbortSignal,
): Promise<RepairResult> {
  const result = await session.call('repair.apply', { storeId, planId: plan.planId!, confirm: plan.confirm ?? '' }, { signal, onProgress: showProgress });
  clearProgress();
  if (opts.json) printJson({ dryRun: false, plan, result });
  // A plan with nothing to do already said so; don't repeat the same line as its result.
  else if (plan.steps.length || result.summary !== plan.summary || result.steps.length || result.warnings.length) printText(formatResult(result));
  if (result.steps.some((s) => !s.ok) || (result.applied && !result.verified)) process.exitCode = EXIT.FAILED;
  // never a success when something was left as it was (multipart: uploads still open)
  else if (result.unsettled?.length) process.exitCode = EXIT.UNSETTLED;
  return result;
}

function connectionOf(src: EvidenceSources): S3ConnectionOptions | undefined {
  return src.live ?? undefined;
}

export async function runRepairAction(run: ActionRun): Promise<void> {
  const { opts } = run;
  const ac = cancelOnSigint();
  if (opts.force)
    process.stderr.write(
      'WARNING: --force given: forceable refusals that protect your data (a process using the store, an index below the safe value) are overridden.\n',
    );
  let plan: RepairPlan | null = null;
  await withSession(async (session) => {
    try {
      const d = await openDiagnosed(session, run.store, run.action === 'undo' ? {} : opts, ac.signal);
      const storeId = d.opened.storeId;
      const needLive = run.live === 'plan' || (run.live === 'apply' && opts.apply);
      if (needLive && !d.sources.live)
        throw new CliError(
          `${run.action}${run.live === 'apply' ? ' --apply' : ''} needs the bucket: add --live (and --endpoint/--profile as needed)`,
          EXIT.USAGE,
        );
      const request: RepairPlanRequest = {
        action: run.action,
        ...(d.outputId !== undefined ? { outputId: d.outputId } : {}),
        ...run.request,
        ...(opts.force ? { force: true } : {}),
        ...(connectionOf(d.sources) ? { connection: connectionOf(d.sources) } : {}),
        at: d.diagnosis.at,
      };
      plan = await session.call('repair.plan', { storeId, ...request }, { signal: ac.signal, onProgress: showProgress });
      clearProgress();
      if (opts.planOut) await writePlanFile(opts.planOut, { store: run.store, sources: d.sources, request, plan });
      if (!opts.apply) {
        if (opts.json) printJson({ dryRun: true, plan });
        else printText(formatPlan(plan) + dryRunFooter(plan, run.live === 'apply', !!d.sources.live, opts.planOut));
        if (blocking(plan).length) process.exitCode = EXIT.REFUSED;
        else if (plan.details?.kind === 'multipart' && plan.details.unsettled.length && !plan.steps.length) process.exitCode = EXIT.UNSETTLED;
        return;
      }
      if (!opts.json) printText(formatPlan(plan));
      await applyAndReport(session, storeId, plan, opts, ac.signal);
    } catch (err) {
      clearProgress();
      // --json: scripts always get one JSON document on stdout, also when refused or failed.
      if (opts.json) {
        const exitCode = err instanceof CliError ? err.exitCode : EXIT.FAILED;
        printJson({ dryRun: !opts.apply, ...(plan ? { plan } : {}), error: { exitCode, message: (err as Error)?.message ?? String(err) } });
      }
      throw err;
    }
  });
}
