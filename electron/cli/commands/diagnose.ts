/**
 * `store-doctor diagnose <store> --config <conf> [evidence]`: per S3 output the index summary
 * and findings by severity with the action to take. Exit 0 (nothing above warning), 4 (a
 * critical or error finding), 2 (bad usage or input).
 */
import type { Command } from 'commander';
import type { Diagnosis, Finding, FluentBitConfig, OutputDiagnosis } from '../../../shared/model';
import { SEVERITY_ORDER, worstSeverity } from '../../engine/diagnose';
import { addEvidenceOptions, runDiagnosisFromCli, type EvidenceCliOptions } from '../evidence-options';
import { pushAll } from '../../../shared/arrays';
import { escapeField as e } from '../../../shared/escape';
import { EXIT, printJson, printText } from '../output';

interface DiagnoseCliOptions extends EvidenceCliOptions {
  json?: boolean;
}

const MARK: Record<Finding['severity'], string> = { critical: 'CRITICAL', error: 'ERROR', warning: 'WARNING', info: 'info' };

function printFinding(f: Finding, indent: string): string[] {
  const lines = [`${indent}${MARK[f.severity]} ${f.code}: ${e(f.summary)}`];
  for (const line of f.evidence) lines.push(`${indent}    ${e(line)}`);
  lines.push(`${indent}  → ${e(f.action)}`);
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

/** Human diagnosis; the first line is the verdict. `configPath`: the --config given, if any. */
export function formatDiagnosis(d: Diagnosis, configPath?: string): string {
  const worst = worstSeverity(d);
  const act = worst === 'critical' || worst === 'error';
  const counts = severityCounts(d);
  const lines: string[] = [
    `Diagnosis: ${counts || 'no findings'}${act ? ' — act before restarting Fluent Bit' : worst ? `; nothing above ${worst}` : ''} (assumed restart time ${e(d.at)})`,
  ];
  if (!d.outputs.length) {
    lines.push(
      '',
      configPath
        ? `No S3 output to diagnose: ${e(configPath)} has no S3 output with a bucket.`
        : 'No S3 output to diagnose (give --config, or the store has no seq_index file).',
    );
  }
  for (const o of d.outputs) pushAll(lines, ['', ...formatOutput(o)]);
  if (d.storeFindings.length) {
    lines.push('', 'Store');
    for (const f of d.storeFindings) pushAll(lines, printFinding(f, '  '));
  }
  lines.push('', act ? `Result: ${worst} findings — act before restarting Fluent Bit.` : `Result: ${worst ? `nothing above ${worst}` : 'no findings'}.`);
  return lines.join('\n');
}

function formatOutput(o: OutputDiagnosis): string[] {
  const lines = [
    `${e(o.displayName)} (id ${o.id}) → bucket ${e(o.bucket)}`,
    `  key format      ${o.keyFormat ? e(o.keyFormat) : '(unknown: no config)'}  [collision risk: ${o.collision.risk}]`,
    `  root            ${o.rootPath ? e(o.rootPath) : '(not in the store)'}`,
    `  persisted index ${o.persistedNextIndex ?? '—'}   highest in bucket ${o.highestIndexInBucket ?? '—'}   safe next index ${o.safeNextIndex}`,
  ];
  if (o.resets.length) lines.push(`  resets          ${o.resets.map((r) => `${r.from}→${r.to} at ${e(r.time)}`).join(', ')}`);
  if (!o.findings.length) lines.push('  no findings');
  for (const f of o.findings) pushAll(lines, printFinding(f, '  '));
  return lines;
}

export function diagnosisJson(d: Diagnosis, configWarnings: FluentBitConfig['warnings'] = []) {
  return {
    at: d.at,
    configWarnings,
    outputs: d.outputs.map((o) => ({
      id: o.id,
      displayName: o.displayName,
      bucket: o.bucket,
      keyFormat: o.keyFormat,
      rootPath: o.rootPath,
      persistedNextIndex: o.persistedNextIndex,
      highestIndexInBucket: o.highestIndexInBucket,
      safeNextIndex: o.safeNextIndex,
      collision: o.collision,
      resets: o.resets,
      timeline: o.timeline,
      findings: o.findings.map(({ code, severity, summary, evidence, action, data }) => ({
        code,
        severity,
        summary,
        evidence,
        action,
        ...(data ? { data } : {}),
      })),
    })),
    storeFindings: d.storeFindings.map(({ code, severity, summary, evidence, action }) => ({ code, severity, summary, evidence, action })),
  };
}

export function registerDiagnose(program: Command): void {
  const cmd = program
    .command('diagnose')
    .description('Compare the persisted $INDEX with the bucket and report resets, overwrite risk, backlog, multipart state.')
    .argument('<store>', 'store_dir, one bucket root, or a .tar/.tar.gz snapshot of either');
  addEvidenceOptions(cmd)
    .option('--json', 'print JSON: { outputs: [ { id, bucket, keyFormat, persistedNextIndex, highestIndexInBucket, safeNextIndex, findings } ] }')
    .action(async (store: string, opts: DiagnoseCliOptions) => {
      const run = await runDiagnosisFromCli(store, opts);
      const { diagnosis, config } = run;
      if (opts.json) printJson(diagnosisJson(diagnosis, config?.warnings ?? []));
      else {
        for (const w of config?.warnings ?? []) printText(`store-doctor: config warning: ${e(w.file)}:${w.line}: ${e(w.message)}\n`, process.stderr);
        printText(formatDiagnosis(diagnosis, opts.config) + '\n');
      }
      const worst = worstSeverity(diagnosis);
      process.exitCode = worst === 'critical' || worst === 'error' ? EXIT.FINDINGS : EXIT.OK;
    });
}
