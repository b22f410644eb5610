/**
 * `store-doctor diagnose <store> --config <conf> [evidence]`: per S3 output the index summary and
 * findings by severity, each with what to do and the command line that does it, and what was and
 * was not checked. Exit 0 (nothing above warning), 4 (a critical or error finding), 2 (bad usage
 * or input).
 */
import { highestLabel, highestScope } from '../../../shared/evidence-scope';
import type { Command } from 'commander';
import type { Diagnosis, Finding, FluentBitConfig, OutputDiagnosis } from '../../../shared/model';
import { stepCommands, type CommandContext } from '../../../shared/suggest-cli';
import { SEVERITY_ORDER, worstSeverity } from '../../../shared/severity';
import { pushAll } from '../../../shared/arrays';
import { escapeField as e } from '../../../shared/escape';
import { addEvidenceOptions, openDiagnosed, type EvidenceCliOptions } from '../evidence-options';
import { EXIT, printJson, printText } from '../output';
import { withSession } from '../session';

interface DiagnoseCliOptions extends EvidenceCliOptions {
  json?: boolean;
}

const MARK: Record<Finding['severity'], string> = { critical: 'CRITICAL', error: 'ERROR', warning: 'WARNING', info: 'info' };

/** The command lines of a finding's next steps. */
export function findingCommands(f: Finding, ctx: CommandContext): string[] {
  return f.next.flatMap((s) => stepCommands(s, ctx));
}

function printFinding(f: Finding, indent: string, ctx: CommandContext): string[] {
  const lines = [`${indent}${MARK[f.severity]} ${f.code}: ${e(f.summary)}`];
  for (const line of f.evidence) lines.push(`${indent}    ${e(line)}`);
  lines.push(`${indent}  → ${e(f.action)}`);
  for (const c of findingCommands(f, ctx)) lines.push(`${indent}      ${e(c)}`);
  return lines;
}

/** "1 error, 2 warnings" — findings per severity, worst first. */
function severityCounts(d: Diagnosis): string {
  const all = [...d.outputs.flatMap((o) => o.findings), ...d.storeFindings];
  return SEVERITY_ORDER.map((s) => [s, all.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n === 1 || s === 'info' || s === 'critical' ? '' : 's'}`)
    .join(', ');
}

const LISTING: Record<string, string> = {
  complete: 'full listing',
  window: 'focused listing (complete for the partitions a restart can reach; older keys not listed)',
  stale: 'STALE listing (list again: re-run with --live, or export the --listing file again)',
  incomplete: 'INCOMPLETE listing',
  none: 'no listing',
  unusable: 'not matchable',
};

/** What the diagnosis looked at and what it did not: never read silence as "fine". */
function checkedLines(d: Diagnosis): string[] {
  const c = d.checks;
  const lines = [
    `Checked: store ${c.store ? 'found' : 'NOT found'}; config ${c.config ? c.config.join(', ') : 'not given (outputs inferred from seq_index files)'}`,
  ];
  for (const o of c.outputs) {
    lines.push(
      `  ${o.displayName}: bucket evidence ${LISTING[o.listing]}; versions ${o.versions ? 'listed' : 'not listed'}; multipart uploads ${o.multipart ? 'listed' : 'not listed'}`,
    );
  }
  for (const r of c.roots.filter((x) => x.index === 'unknown'))
    lines.push(`  root ${e(r.bucket)}: INDEX STATE UNKNOWN (no config, no seq_index file): bucket evidence for ${e(r.bucket)} not checked`);
  // Which Fluent Bit the findings apply, and where that comes from (given / binary / inferred / unknown).
  lines.push(`  ${e(d.fluentBit.text)}`);
  for (const ev of d.fluentBit.evidence) lines.push(`    ${e(ev)}`);
  return lines;
}

/** Human diagnosis; the first line is the verdict. */
export function formatDiagnosis(d: Diagnosis, ctx: CommandContext): string {
  const worst = worstSeverity(d);
  const act = worst === 'critical' || worst === 'error';
  const counts = severityCounts(d);
  const lines: string[] = [
    `Diagnosis: ${counts || 'no findings'}${act ? ' — act before restarting Fluent Bit' : worst ? `; nothing above ${worst}` : ''} (assumed restart time ${e(d.at)})`,
    ...checkedLines(d),
  ];
  if (!d.outputs.length && d.checks.store) {
    lines.push(
      '',
      ctx.config
        ? `No S3 output to diagnose: ${e(ctx.config)} has no S3 output with a bucket.`
        : 'No S3 output to diagnose (give --config, or the store has no seq_index file).',
    );
  }
  for (const o of d.outputs) pushAll(lines, ['', ...formatOutput(o, ctx)]);
  if (d.storeFindings.length) {
    lines.push('', 'Store');
    for (const f of d.storeFindings) pushAll(lines, printFinding(f, '  ', ctx));
  }
  lines.push(
    '',
    act
      ? `Result: ${worst} findings — act before restarting Fluent Bit.`
      : !d.checks.complete
        ? `Result: INCOMPLETE — the index state of ${d.checks.roots
            .filter((r) => r.index === 'unknown')
            .map((r) => e(r.bucket))
            .join(', ')} is unknown: give --config (and a listing).`
        : `Result: ${worst ? `nothing above ${worst}` : 'no findings'} (in what was checked, above).`,
  );
  return lines.join('\n');
}

function formatOutput(o: OutputDiagnosis, ctx: CommandContext): string[] {
  const safe = o.safeNextIndex !== null ? String(o.safeNextIndex) : `unknown (at least ${o.lowerBoundNextIndexText ?? o.lowerBoundNextIndex})`;
  const lines = [
    `${e(o.displayName)} (id ${o.id}) → bucket ${e(o.bucket)}`,
    `  key format      ${o.keyFormat ? e(o.keyFormat) : '(unknown: no config)'}  [collision risk: ${o.collision.risk}]`,
    `  root            ${o.rootPath ? e(o.rootPath) : '(not in the store)'}`,
    `  persisted index ${o.persistedNextIndexText ?? o.persistedNextIndex ?? '—'}   highest ${highestLabel(o.indexEvidence)} ${o.highestIndexInBucketText ?? o.highestIndexInBucket ?? '—'}   safe next index ${safe}`,
    `  evidence        ${e(o.indexEvidence.text)}`,
  ];
  if (o.resets.length) lines.push(`  resets          ${o.resets.map((r) => `${r.from}→${r.to} at ${e(r.time)}`).join(', ')}`);
  if (!o.findings.length) lines.push('  no findings');
  for (const f of o.findings) pushAll(lines, printFinding(f, '  ', ctx));
  return lines;
}

function findingJson(f: Finding, ctx: CommandContext) {
  const { code, severity, summary, evidence, action, next, data } = f;
  return { code, severity, summary, evidence, action, next, commands: findingCommands(f, ctx), ...(data ? { data } : {}) };
}

export function diagnosisJson(d: Diagnosis, ctx: CommandContext, configWarnings: FluentBitConfig['warnings'] = []) {
  return {
    at: d.at,
    fluentBit: d.fluentBit,
    checks: d.checks,
    configWarnings,
    outputs: d.outputs.map((o) => ({
      id: o.id,
      displayName: o.displayName,
      bucket: o.bucket,
      keyFormat: o.keyFormat,
      rootPath: o.rootPath,
      persistedNextIndex: o.persistedNextIndex,
      highestIndexInBucket: o.highestIndexInBucket,
      highestIndexScope: highestScope(o.indexEvidence),
      safeNextIndex: o.safeNextIndex,
      lowerBoundNextIndex: o.lowerBoundNextIndex,
      indexEvidence: o.indexEvidence,
      ...(o.highestIndexInBucketText ? { highestIndexInBucketText: o.highestIndexInBucketText } : {}),
      ...(o.lowerBoundNextIndexText ? { lowerBoundNextIndexText: o.lowerBoundNextIndexText } : {}),
      ...(o.persistedNextIndexText ? { persistedNextIndexText: o.persistedNextIndexText } : {}),
      collision: o.collision,
      resets: o.resets,
      timeline: o.timeline,
      findings: o.findings.map((f) => findingJson(f, ctx)),
    })),
    storeFindings: d.storeFindings.map((f) => findingJson(f, ctx)),
  };
}

export function registerDiagnose(program: Command): void {
  const cmd = program
    .command('diagnose')
    .description('Compare the persisted $INDEX with the bucket and report resets, overwrite risk, backlog, multipart state.')
    .argument('<store>', 'store_dir, one bucket root, or a .tar/.tar.gz snapshot of either');
  addEvidenceOptions(cmd)
    .option('--json', 'print JSON: { checks, outputs: [ { id, bucket, keyFormat, persistedNextIndex, highestIndexInBucket, safeNextIndex, findings } ] }')
    .action(async (store: string, opts: DiagnoseCliOptions) =>
      withSession(async (session) => {
        const { diagnosis, config, commands } = await openDiagnosed(session, store, opts);
        if (opts.json) printJson(diagnosisJson(diagnosis, commands, config?.warnings ?? []));
        else {
          for (const w of config?.warnings ?? []) printText(`store-doctor: config warning: ${e(w.file)}:${w.line}: ${e(w.message)}\n`, process.stderr);
          printText(formatDiagnosis(diagnosis, commands) + '\n');
        }
        const worst = worstSeverity(diagnosis);
        process.exitCode = worst === 'critical' || worst === 'error' ? EXIT.FINDINGS : diagnosis.checks.complete ? EXIT.OK : EXIT.INCOMPLETE;
      }),
    );
}
