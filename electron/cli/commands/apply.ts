/**
 * `store-doctor apply <plan.json> [--json]`: apply a plan saved with `--plan-out`. The store, the
 * config and the bucket evidence are read again from the sources the plan names (a live listing
 * is listed again, for the same assumed restart time); the session plans the same request and
 * accepts only the very same plan, then applies exactly it. Stale plans are refused (exit 5).
 * `force` is never read from the file: a plan reviewed as refused applies only with `--force` here.
 */
import type { Command } from 'commander';
import type { RepairPlan } from '../../../shared/model';
import { openDiagnosed, type EvidenceCliOptions } from '../evidence-options';
import { escapeField } from '../../../shared/escape';
import { cancelOnSigint, CliError, EXIT, printJson, printText } from '../output';
import { withSession } from '../session';
import { applyAndReport, formatPlan } from './repair-common';
import { readPlanFile } from './plan-file';

export function registerApply(program: Command): void {
  program
    .command('apply')
    .description('apply a plan saved with --plan-out, exactly as reviewed (refused when anything it rests on has changed)')
    .argument('<plan-file>', 'a file written by --plan-out')
    .option('--force', 'apply a plan whose forceable refusals you reviewed (never taken from the plan file)')
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: { json?: boolean; force?: boolean }) => {
      const doc = await readPlanFile(file);
      if (opts.force)
        process.stderr.write(
          'WARNING: --force given: forceable refusals of the saved plan (a process using the store, an index below the safe value) are overridden.\n',
        );
      const ac = cancelOnSigint();
      const s = doc.sources;
      const evidence: EvidenceCliOptions = {
        config: s.configPath,
        output: s.outputId !== undefined ? String(s.outputId) : undefined,
        listing: s.listing,
        versions: s.versions,
        multipart: s.multipart,
        live: !!s.live,
        ...(s.live
          ? { profile: s.live.profile, region: s.live.region, endpoint: s.live.endpoint, pathStyle: s.live.pathStyle, fullListing: s.fullListing || undefined }
          : {}),
        at: typeof doc.request.at === 'string' ? doc.request.at : s.at,
        fluentBitVersion: s.fluentBitVersion,
        fluentBitBin: s.fluentBitBin,
      };
      let plan: RepairPlan | null = null;
      await withSession(async (session) => {
        try {
          const d = await openDiagnosed(session, doc.store, evidence, ac.signal);
          plan = await session.call(
            'repair.import',
            { storeId: d.opened.storeId, plan: doc.plan, request: doc.request, force: !!opts.force },
            { signal: ac.signal },
          );
          if (!opts.json) printText(`Applying the plan saved in ${escapeField(file)} (${escapeField(doc.createdAt)}):\n` + formatPlan(plan));
          await applyAndReport(session, d.opened.storeId, plan, opts, ac.signal);
        } catch (err) {
          if (opts.json) {
            const exitCode = err instanceof CliError ? err.exitCode : EXIT.FAILED;
            printJson({ dryRun: false, ...(plan ? { plan } : {}), error: { exitCode, message: (err as Error)?.message ?? String(err) } });
          }
          throw err;
        }
      });
    });
}
