/**
 * `store-doctor fleet <folder>`: summarise a folder of node reports (each guard's `/report.json`)
 * — node, outputs at risk, backlog, quarantine, damaged chunks, guard state — in the terminal,
 * as JSON (`--json`) or Markdown (`--format markdown`, `--out file`). Exit 4 when an output is at risk.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { escapeField as e } from '../../../shared/escape';
import type { FleetSummary } from '../../../shared/fleet';
import { CliError, EXIT, printJson, printText } from '../output';
import { withSession } from '../session';
import { addPrometheusOptions, runPrometheusFleet, type PromCliOptions } from './fleet-prom';

const mib = (b: number) => (b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`);
export const duration = (s: number | null) =>
  s === null
    ? '—'
    : s >= 86400
      ? `${(s / 86400).toFixed(1)} d`
      : s >= 3600
        ? `${(s / 3600).toFixed(1)} h`
        : s >= 60
          ? `${Math.round(s / 60)} min`
          : `${Math.round(s)} s`;

function pad(rows: string[][]): string {
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => c.padEnd(w[i]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

export function formatFleetText(f: FleetSummary): string {
  const t = f.totals;
  const head = `${t.nodes} node(s) in ${e(f.folder)}: ${t.nodesAtRisk} with outputs at risk (${t.outputsAtRisk} outputs), backlog ${t.backlogChunks} chunks (${mib(t.backlogBytes)}), quarantine ${t.quarantineChunks}, damaged ${t.damagedChunks}\n`;
  const rows = [['NODE', 'GUARD', 'AT RISK', 'BACKLOG', 'OLDEST', 'QUARANTINE', 'DAMAGED', 'RESTORES']];
  for (const n of f.nodes)
    rows.push([
      e(n.node),
      n.guardState,
      `${n.outputsAtRisk}/${n.outputs}`,
      `${n.backlogChunks} (${mib(n.backlogBytes)})`,
      duration(n.oldestBacklogSeconds),
      String(n.quarantineChunks),
      String(n.damagedChunks),
      String(n.restores),
    ]);
  const risks = f.nodes.filter((n) => n.risks.length).flatMap((n) => n.risks.map((r) => `  ${e(n.node)}: ${e(r)}`));
  const skipped = f.skipped.map((s) => `  ${e(s.file)}: ${e(s.error)}`);
  const collisions = f.collisions.map((c) => `  ${c.code}: ${e(c.summary)}`);
  return (
    head +
    (f.nodes.length ? '\n' + pad(rows) : '') +
    (risks.length ? `\nAt risk:\n${risks.join('\n')}\n` : '') +
    (collisions.length ? `\nAcross nodes:\n${collisions.join('\n')}\n` : '') +
    (skipped.length ? `\nNot read:\n${skipped.join('\n')}\n` : '')
  );
}

/** A report's text in Markdown: controls escaped, and no HTML (a Markdown viewer renders `<img onerror>`): `&`, `<`, `>` as entities, `|` escaped for tables. */
const md = (s: string) => e(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');

export function formatFleetMarkdown(f: FleetSummary): string {
  const t = f.totals;
  const lines = [
    `# Fleet: ${t.nodes} node(s)`,
    '',
    `${t.nodesAtRisk} node(s) with outputs at risk (${t.outputsAtRisk} outputs) · backlog ${t.backlogChunks} chunks (${mib(t.backlogBytes)}) · quarantine ${t.quarantineChunks} · damaged ${t.damagedChunks}`,
    '',
    '| node | guard | outputs at risk | backlog | oldest | quarantine | damaged | restores |',
    '|---|---|---|---|---|---|---|---|',
    ...f.nodes.map(
      (n) =>
        `| ${md(n.node)} | ${n.guardState} | ${n.outputsAtRisk}/${n.outputs} | ${n.backlogChunks} (${mib(n.backlogBytes)}) | ${duration(n.oldestBacklogSeconds)} | ${n.quarantineChunks} | ${n.damagedChunks} | ${n.restores} |`,
    ),
  ];
  const risky = f.nodes.filter((n) => n.risks.length);
  if (risky.length) lines.push('', '## At risk', '', ...risky.flatMap((n) => n.risks.map((r) => `- **${md(n.node)}**: ${md(r)}`)));
  if (f.collisions.length) lines.push('', '## Across nodes', '', ...f.collisions.map((c) => `- **${c.code}**: ${md(c.summary)}`));
  if (f.skipped.length) lines.push('', '## Not read', '', ...f.skipped.map((s) => `- ${md(s.file)}: ${md(s.error)}`));
  return lines.join('\n') + '\n';
}

export function registerFleet(program: Command): void {
  const cmd = program
    .command('fleet [folder]')
    .description(
      "summarise a folder of node reports (each guard's /report.json), or the guards' series in Prometheus (--prometheus URL): outputs at risk, backlog, quarantine, damaged, guard state",
    )
    .option('--json', 'machine-readable output')
    .option('--format <format>', 'text | markdown | json (default text)')
    .option('--out <file>', 'write the summary to this file instead of stdout');
  addPrometheusOptions(cmd).action(async (folder: string | undefined, opts: PromCliOptions & { json?: boolean; format?: string; out?: string }) => {
    if (opts.prometheus) {
      if (folder) throw new CliError('give a folder or --prometheus, not both', EXIT.USAGE);
      return runPrometheusFleet(opts);
    }
    if (!folder) throw new CliError('give a folder of report.json files, or --prometheus URL', EXIT.USAGE);
    const format = opts.json ? 'json' : (opts.format ?? 'text');
    if (!['text', 'markdown', 'json'].includes(format)) throw new CliError(`--format ${format}: give text, markdown or json`, EXIT.USAGE);
    const summary = await withSession((s) => s.call('fleet.open', { path: path.resolve(folder) }));
    if (opts.out) {
      const body =
        format === 'json' ? JSON.stringify(summary, null, 2) + '\n' : format === 'markdown' ? formatFleetMarkdown(summary) : formatFleetText(summary);
      await fsp.writeFile(opts.out, body);
      printText(`${summary.totals.nodes} node report(s) summarised into ${opts.out}\n`);
    } else if (format === 'json') printJson(summary);
    else printText(format === 'markdown' ? formatFleetMarkdown(summary) : formatFleetText(summary));
    if (summary.totals.outputsAtRisk > 0) process.exitCode = EXIT.FINDINGS;
  });
}
