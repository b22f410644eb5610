/**
 * Report export: JSON (the scan report and the diagnosis, for tools) and Markdown (a summary a
 * person can paste into a support ticket: findings with actions, seq index per output, streams).
 */
import path from 'node:path';
import type { Diagnosis, DiagnosisChecks, Finding, FluentBitConfig, S3Evidence, StoragePathReport, StoreReport } from '../../../shared/model';
import { escapeField } from '../../../shared/escape';
import { md, type ExportedReport } from './export-md';
import { storagePathSection } from './export-storage-path';
import { stepCommands, type CommandContext } from '../../../shared/suggest-cli';

export { md, type ExportedReport };

export interface ExportInput {
  report: StoreReport;
  diagnosis: Diagnosis | null;
  config?: FluentBitConfig | null;
  evidence?: S3Evidence | null;
  version: string;
  generatedAt?: Date;
  /** The config's `[SERVICE] storage.path` read (or why it could not be); absent when the config sets none. */
  storagePath?: { report: StoragePathReport | null; error: string | null };
}

const SEVERITY_ORDER = ['critical', 'error', 'warning', 'info'] as const;

function baseName(report: StoreReport): string {
  const name = path.basename(report.source.path).replace(/\.(tar\.gz|tgz|tar)$/i, '') || 'store';
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
}

function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[:]/g, '-')
    .replace(/\.\d{3}Z$/, 'Z');
}

function allFindings(d: Diagnosis | null): Finding[] {
  if (!d) return [];
  return [...d.storeFindings, ...d.outputs.flatMap((o) => o.findings)];
}

export function exportJson(input: ExportInput): ExportedReport {
  const at = input.generatedAt ?? new Date();
  const doc = {
    tool: 'store-doctor',
    version: input.version,
    generatedAt: at.toISOString(),
    report: input.report,
    diagnosis: input.diagnosis,
    config: input.config ?? null,
    evidence: input.evidence
      ? {
          source: input.evidence.source,
          bucket: input.evidence.bucket,
          scope: input.evidence.scope,
          objects: input.evidence.objects.length,
          complete: input.evidence.complete,
          notes: input.evidence.notes,
        }
      : null,
    ...(input.storagePath ? { storagePath: input.storagePath.report, storagePathError: input.storagePath.error } : {}),
  };
  return { fileName: `store-doctor-${baseName(input.report)}-${stamp(at)}.json`, mimeType: 'application/json', text: JSON.stringify(doc, null, 2) + '\n' };
}

const LISTING: Record<DiagnosisChecks['outputs'][number]['listing'], string> = {
  complete: 'full listing',
  window: 'focused listing, complete for the partitions a restart can reach (older keys not listed)',
  stale: '**stale** listing (older than a write Store Doctor made to the bucket, or than the age limit)',
  incomplete: '**incomplete** listing',
  none: '**not listed**',
  unusable: 'keys not matchable (no key format or no $INDEX)',
};

function checksSection(d: Diagnosis | null): string[] {
  if (!d) return [];
  const c = d.checks;
  const out = ['## What was checked', '', `- Store: ${c.store ? 'found' : '**no Fluent Bit store found**'}`];
  out.push(`- Config: ${c.config ? c.config.map((f) => `\`${md(path.basename(f))}\``).join(', ') : '**not given** (outputs inferred from seq_index files)'}`);
  for (const o of c.outputs) {
    out.push(
      `- ${md(o.displayName)}: bucket evidence ${LISTING[o.listing]}; versions ${o.versions ? 'listed' : 'not listed'}; multipart uploads ${o.multipart ? 'listed' : 'not listed'}`,
    );
  }
  if (d.fluentBit) out.push(`- ${md(d.fluentBit.text)}${d.fluentBit.evidence.length ? `: ${d.fluentBit.evidence.map(md).join('; ')}` : ''}`);
  return [...out, ''];
}

function findingsSection(d: Diagnosis | null, ctx: CommandContext): string[] {
  const out = ['## Findings', ''];
  if (!d) return [...out, '_No diagnosis was run._', ''];
  const findings = allFindings(d).sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  if (!findings.length) return [...out, 'No findings in what was checked (see "What was checked").', ''];
  for (const f of findings) {
    out.push(`### ${f.severity.toUpperCase()} \`${f.code}\`${f.outputId != null ? ` (output ${f.outputId})` : ''}`, '', md(f.summary), '');
    if (f.evidence.length) {
      out.push('Evidence:', '');
      for (const e of f.evidence.slice(0, 20)) out.push(`- ${md(e)}`);
      if (f.evidence.length > 20) out.push(`- … ${f.evidence.length - 20} more`);
      out.push('');
    }
    out.push(`**Action:** ${md(f.action)}`, '');
    const cmds = f.next.flatMap((step) => stepCommands(step, ctx));
    if (cmds.length) out.push('```sh', ...cmds.map((c) => escapeField(c)), '```', '');
  }
  return out;
}

function outputsSection(d: Diagnosis | null): string[] {
  if (!d?.outputs.length) return [];
  const out = [
    '## Outputs and $INDEX',
    '',
    '| output | bucket | key format | persisted next index | highest index in bucket | safe next index | resets |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const o of d.outputs) {
    out.push(
      `| ${md(o.displayName)} (id ${o.id}) | ${md(o.bucket)} | \`${md(o.keyFormat)}\` | ${o.persistedNextIndex ?? '—'} | ${o.highestIndexInBucket ?? '—'} | ${o.safeNextIndex ?? `unknown (at least ${o.lowerBoundNextIndexText ?? o.lowerBoundNextIndex})`} | ${o.resets.length} |`,
    );
  }
  return [...out, ''];
}

function storeSection(report: StoreReport): string[] {
  const out = ['## Store', '', `- Source: \`${md(report.source.path)}\` (${md(report.source.description)})`, `- Scanned at: ${report.scannedAt}`, ''];
  for (const root of report.roots) {
    const t = root.totals;
    out.push(
      `### Root \`${md(root.bucket)}\``,
      '',
      `${t.chunks} chunks, ${t.bytes} bytes, ${t.records} records; ${t.pending} pending, ${t.quarantined} quarantined, ${t.damaged} damaged.`,
      '',
    );
    out.push('Seq index files:', '');
    if (!root.seqIndex.length) out.push(`- none. ${md(root.sequence.message)}`);
    for (const s of root.seqIndex) out.push(`- \`${md(s.fileName)}\`: ${s.valueText ?? 'unreadable'} (${s.status}) — ${md(s.message)}`);
    out.push('', '| stream | kind | chunks | bytes | on graceful stop |', '|---|---|---|---|---|');
    for (const st of root.streams) out.push(`| ${md(st.name)} | ${st.kind} | ${st.chunks.length} | ${st.totalBytes} | ${md(st.fateOnGracefulStop)} |`);
    out.push('');
  }
  if (report.problems.length) {
    out.push('### Problems reading the store', '');
    for (const p of report.problems) out.push(`- ${p.severity}: \`${md(p.path)}\` ${md(p.message)}`);
    out.push('');
  }
  return out;
}

export function exportMarkdown(input: ExportInput): ExportedReport {
  const at = input.generatedAt ?? new Date();
  const { report, diagnosis } = input;
  const counts = SEVERITY_ORDER.map((s) => `${allFindings(diagnosis).filter((f) => f.severity === s).length} ${s}`).join(', ');
  const lines = [
    `# Store Doctor report: ${md(path.basename(report.source.path))}`,
    '',
    `Generated by store-doctor ${md(input.version)} at ${at.toISOString()}.`,
    '',
    `**Summary:** ${diagnosis ? counts : 'not diagnosed'}; ${report.roots.length} bucket root(s).`,
    '',
    ...(input.config
      ? [`Fluent Bit config: ${input.config.files.map((f) => `\`${md(path.basename(f))}\``).join(', ')} (${input.config.outputs.length} outputs).`, '']
      : []),
    ...(input.evidence
      ? [`S3 evidence: ${input.evidence.source}, ${input.evidence.objects.length} objects${input.evidence.complete ? '' : ' (incomplete listing)'}.`, '']
      : []),
    ...checksSection(diagnosis),
    ...findingsSection(diagnosis, {
      store: report.source.path,
      config: input.config?.files[0] ?? null,
      evidenceArgs: input.evidence ? (input.evidence.source === 'live' ? ['--live'] : ['--listing', '<listing.json>']) : [],
    }),
    ...outputsSection(diagnosis),
    ...storeSection(report),
    ...(input.storagePath?.report ? storagePathSection(input.storagePath.report, at) : []),
    ...(input.storagePath?.error ? ['## Engine buffer (storage.path)', '', `Not read: ${md(input.storagePath.error)}`, ''] : []),
  ];
  return { fileName: `store-doctor-${baseName(report)}-${stamp(at)}.md`, mimeType: 'text/markdown', text: lines.join('\n') };
}
