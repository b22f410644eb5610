/**
 * `store-doctor scan <path> [--json] [--records|--no-records]`: what is in a store, as Fluent Bit
 * sees it. Exit 0 when it reads cleanly, 3 when some chunks are damaged, 2 for bad usage or
 * unreadable input.
 */
import type { Command } from 'commander';
import type { ChunkInfo, RootReport, StoreReport, StreamInfo } from '../../../shared/model';
import { DAMAGED_CHUNK_STATUSES } from '../../../shared/model';
import { formatBytes } from '../../../shared/format';
import { pushAll } from '../../../shared/arrays';
import { escapeField as e } from '../../../shared/escape';
import { cancelOnSigint, clearProgress, EXIT, printJsonStream, printText } from '../output';
import { showProgress } from '../progress';
import { withSession } from '../session';

function timeRange(chunks: readonly ChunkInfo[]): string {
  const ts = chunks.flatMap((c) => [c.firstRecordTime, c.lastRecordTime]).filter((t): t is string => !!t);
  if (!ts.length) return '';
  const ms = ts.map((t) => [Date.parse(t), t] as const).filter(([m]) => !Number.isNaN(m));
  if (!ms.length) return '';
  ms.sort((a, b) => a[0] - b[0]);
  return `  oldest ${e(ms[0][1])}  newest ${e(ms[ms.length - 1][1])}`;
}

function statusCounts(chunks: readonly ChunkInfo[]): string {
  const m = new Map<string, number>();
  for (const c of chunks) m.set(c.status, (m.get(c.status) ?? 0) + 1);
  return [...m].map(([s, n]) => `${n} ${s}`).join(', ');
}

function streamLines(s: StreamInfo): string[] {
  const tags = [...new Set(s.chunks.map((c) => c.tag).filter((t): t is string => t !== null))];
  const records = s.chunks.reduce((a, c) => a + (c.records ?? 0), 0);
  const showTags = s.kind === 'data' || s.kind === 'quarantine';
  const head =
    `  ${e(s.name)}/  [${s.kind}]  ${s.chunks.length} chunk${s.chunks.length === 1 ? '' : 's'}, ${formatBytes(s.totalBytes)}` +
    (showTags && s.chunks.length ? `, ${records} records` : '') +
    (s.chunks.length ? `  (${statusCounts(s.chunks)})` : '');
  const out = [head];
  if (showTags && tags.length) out.push(`      tags: ${tags.slice(0, 8).map(e).join(', ')}${tags.length > 8 ? `, … (${tags.length})` : ''}`);
  const range = showTags ? timeRange(s.chunks) : '';
  if (range) out.push(`      ${range.trim()}`);
  if (s.kind === 'multipart') {
    for (const c of s.chunks) {
      const mp = c.multipart;
      if (mp)
        out.push(
          `      ${e(c.name)}: ${e(mp.s3Key)} upload ${e(mp.uploadId)}, parts ${mp.completeParts.map((p) => p.partNumber).join(',') || 'none'}${mp.problems.length ? ` — ${e(mp.problems.join(' '))}` : ''}`,
        );
    }
  }
  for (const c of s.chunks) if (c.status !== 'ok') out.push(`      ! ${e(c.name)}: ${c.status} — ${e(c.message)}`);
  if (s.writable === false) out.push('      ! not writable: Fluent Bit skips this stream silently');
  for (const i of s.ignored) out.push(`      - ignored ${e(i.path)}: ${e(i.reason)}`);
  out.push(`      graceful stop: ${e(s.fateOnGracefulStop)}`);
  return out;
}

function rootLines(r: RootReport): string[] {
  const t = r.totals;
  const out = [
    `Root ${e(r.bucket)}  ${e(r.path)}`,
    `  ${t.chunks} chunks, ${formatBytes(t.bytes)}, ${t.records} records; ${t.pending} pending, ${t.quarantined} quarantined, ${t.damaged} damaged`,
  ];
  const damaged = r.streams.flatMap((s) => s.chunks).filter((c) => DAMAGED_CHUNK_STATUSES.includes(c.status));
  for (const c of damaged) out.push(`  ✗ ${e(c.path)}: ${c.status} — ${e(c.message)}`);
  if (r.seqIndex.length === 0) out.push(`  seq index: none. ${e(r.sequence.message)}`);
  for (const s of r.seqIndex) {
    out.push(`  seq index ${e(s.fileName)} (output ${s.outputId ?? '?'}): raw "${e(s.raw)}" → ${s.valueText ?? 'unreadable'} [${s.status}] ${e(s.message)}`);
  }
  if (r.sequence.present) out.push(`  sequence/: ${e(r.sequence.message)}`);
  for (const s of r.streams) pushAll(out, streamLines(s));
  for (const i of r.ignored) out.push(`  - ignored ${e(i.path)}: ${e(i.reason)}`);
  return out;
}

export function formatReport(report: StoreReport): string {
  const out = [`${e(report.source.path)}: ${e(report.source.description)}`];
  if (report.problems.length) {
    out.push('Problems:');
    for (const p of report.problems) out.push(`  ${p.severity === 'error' ? '✗' : p.severity === 'warning' ? '!' : '-'} ${e(p.path)}: ${e(p.message)}`);
  }
  if (report.roots.length === 0) out.push('No bucket roots.');
  for (const r of report.roots) pushAll(out, ['', ...rootLines(r)]);
  return out.join('\n') + '\n';
}

/** Exit code for a report: 2 when input could not be read, 3 when chunks are damaged, else 0. */
export function scanExitCode(report: StoreReport): number {
  if (report.problems.some((p) => p.severity === 'error')) return EXIT.USAGE;
  if (report.roots.some((r) => r.totals.damaged > 0)) return EXIT.DAMAGED;
  return EXIT.OK;
}

export function registerScan(program: Command): void {
  program
    .command('scan')
    .description('Show everything in a store_dir, one bucket root, or a .tar/.tar.gz snapshot, as Fluent Bit sees it')
    .argument('<path>', 'store_dir, store_dir/<bucket>, or a .tar/.tar.gz of either')
    .option('--json', 'print the StoreReport as JSON')
    .option('--records', 'count records in every data chunk (default)')
    .option('--no-records', 'read headers only (faster)')
    .action(async (p: string, opts: { json?: boolean; records?: boolean }) => {
      const ac = cancelOnSigint();
      let report: StoreReport;
      try {
        report = await withSession(async (session) => {
          const opened = await session.call('store.open', { path: p, records: opts.records !== false }, { signal: ac.signal, onProgress: showProgress });
          return opened.report;
        });
      } finally {
        clearProgress();
      }
      if (opts.json) await printJsonStream(report);
      else printText(formatReport(report));
      process.exitCode = scanExitCode(report);
    });
}
