/**
 * `store-doctor fleet --prometheus URL`: the node table from the guards' series in Prometheus
 * (engine/fleet-prom/), at-risk first — guard state, outputs at risk and why, index persisted /
 * guarded, backlog, quarantine, damaged, restores, age of the last scrape. Auth and TLS options
 * as Prometheus users know them; the token can come from a file or the environment (never argv).
 */
import { promises as fsp } from 'node:fs';
import type { Command } from 'commander';
import { escapeField as e } from '../../../shared/escape';
import { formatSeconds as duration, type PrometheusConnection, type PromFleet } from '../../../shared/fleet-prom';
import { CliError, EXIT, printJson, printText } from '../output';
import { withSession } from '../session';

export interface PromCliOptions {
  prometheus?: string;
  prometheusBearerTokenFile?: string;
  prometheusBasicAuth?: string;
  prometheusCa?: string;
  prometheusCert?: string;
  prometheusKey?: string;
  prometheusInsecureSkipVerify?: boolean;
  prometheusServerName?: string;
  prometheusTimeout?: string;
  atRiskOnly?: boolean;
  node?: string;
}

export function addPrometheusOptions(cmd: Command): Command {
  return cmd
    .option('--prometheus <url>', "read the fleet from Prometheus (the guards' store_doctor_* series) instead of a folder")
    .option('--prometheus-bearer-token-file <file>', 'bearer token file (or PROMETHEUS_BEARER_TOKEN in the environment)')
    .option('--prometheus-basic-auth <user>', 'basic auth user; the password from PROMETHEUS_PASSWORD')
    .option('--prometheus-ca <file>', 'CA certificate (PEM) for an https:// Prometheus')
    .option('--prometheus-cert <file>', 'client certificate (PEM)')
    .option('--prometheus-key <file>', 'client key (PEM)')
    .option('--prometheus-insecure-skip-verify', "do not check Prometheus's certificate")
    .option('--prometheus-server-name <name>', 'TLS server name to check the certificate against')
    .option('--prometheus-timeout <seconds>', 'per query (default 10)')
    .option('--at-risk-only', 'only nodes with outputs at risk or a guard down')
    .option('--node <text>', 'only nodes whose name or instance contains this text');
}

export async function prometheusConnection(o: PromCliOptions): Promise<PrometheusConnection> {
  const conn: PrometheusConnection = { url: o.prometheus! };
  if (!/^https?:\/\/\S+$/i.test(conn.url)) throw new CliError(`--prometheus ${conn.url}: give an http:// or https:// URL`, EXIT.USAGE);
  const token = o.prometheusBearerTokenFile
    ? (
        await fsp.readFile(o.prometheusBearerTokenFile, 'utf8').catch((err: Error) => {
          throw new CliError(`--prometheus-bearer-token-file ${o.prometheusBearerTokenFile}: ${err.message}`, EXIT.USAGE);
        })
      ).trim()
    : process.env.PROMETHEUS_BEARER_TOKEN;
  if (token) conn.bearerToken = token;
  if (o.prometheusBasicAuth !== undefined) {
    if (token) throw new CliError('give a bearer token or basic auth, not both', EXIT.USAGE);
    conn.basicAuth = { username: o.prometheusBasicAuth, password: process.env.PROMETHEUS_PASSWORD ?? '' };
  }
  if (o.prometheusCa || o.prometheusCert || o.prometheusKey || o.prometheusInsecureSkipVerify || o.prometheusServerName)
    conn.tls = {
      caFile: o.prometheusCa,
      certFile: o.prometheusCert,
      keyFile: o.prometheusKey,
      insecureSkipVerify: o.prometheusInsecureSkipVerify,
      serverName: o.prometheusServerName,
    };
  if (o.prometheusTimeout !== undefined) {
    const s = Number(o.prometheusTimeout);
    if (!(s >= 0.1 && s <= 120)) throw new CliError(`--prometheus-timeout ${o.prometheusTimeout}: seconds between 0.1 and 120`, EXIT.USAGE);
    conn.timeoutMs = Math.round(s * 1000);
  }
  return conn;
}

/** The view's filters, also on the CLI: at risk only, search by node or instance. */
export function filterPromFleet(f: PromFleet, o: { atRiskOnly?: boolean; node?: string }): PromFleet {
  const q = o.node?.toLowerCase();
  const nodes = f.nodes.filter(
    (n) =>
      (!o.atRiskOnly || n.outputsAtRisk > 0 || n.guardState === 'down') && (!q || n.node.toLowerCase().includes(q) || n.instance.toLowerCase().includes(q)),
  );
  return nodes.length === f.nodes.length ? f : { ...f, nodes };
}

const mib = (b: number) => (b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`);

export function formatPromFleetText(f: PromFleet): string {
  const t = f.totals;
  const head = `${t.nodes} node(s) in ${e(f.prometheus)}: ${t.nodesAtRisk} with outputs at risk (${t.outputsAtRisk} outputs), ${t.guardsDown} guard(s) down, backlog ${t.backlogChunks} chunks (${mib(t.backlogBytes)}), quarantine ${t.quarantineChunks}, damaged ${t.damagedChunks}\n`;
  const rows = [['NODE', 'INSTANCE', 'GUARD', 'AT RISK', 'INDEX (PERSISTED/GUARDED)', 'BACKLOG', 'OLDEST', 'QUARANTINE', 'DAMAGED', 'RESTORES', 'SCRAPED']];
  for (const n of f.nodes)
    rows.push([
      e(n.node),
      e(n.instance),
      n.guardState,
      `${n.outputsAtRisk}/${n.outputs}`,
      n.indexes.map((i) => `${e(i.bucket)}/${e(i.output)} ${i.present ? (i.persisted ?? '?') : 'missing'}/${i.guarded ?? '—'}`).join(', ') || '—',
      `${n.backlogChunks} (${mib(n.backlogBytes)})`,
      duration(n.oldestBacklogSeconds),
      String(n.quarantineChunks),
      String(n.damagedChunks),
      String(n.restores),
      n.scrapeAgeSeconds === null ? 'not in the last scrape' : `${duration(n.scrapeAgeSeconds)} ago`,
    ]);
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const table =
    rows
      .map((r) =>
        r
          .map((c, i) => c.padEnd(w[i]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n';
  const risks = f.nodes.filter((n) => n.risks.length).flatMap((n) => n.risks.map((r) => `  ${e(n.node)}: ${e(r)}`));
  return (
    head +
    (f.nodes.length ? '\n' + table : '') +
    (risks.length ? `\nAt risk:\n${risks.join('\n')}\n` : '') +
    (f.collisions.length ? `\nAcross nodes:\n${f.collisions.map((c) => `  ${c.code}: ${e(c.summary)}`).join('\n')}\n` : '') +
    (f.warnings.length ? `\nPrometheus warned (the data may be partial):\n${f.warnings.map((x) => `  ${x}`).join('\n')}\n` : '')
  );
}

export async function runPrometheusFleet(o: PromCliOptions & { json?: boolean; format?: string; out?: string }): Promise<void> {
  const format = o.json ? 'json' : (o.format ?? 'text');
  if (!['text', 'json'].includes(format)) throw new CliError(`--format ${format} with --prometheus: give text or json`, EXIT.USAGE);
  const connection = await prometheusConnection(o);
  const fleet = filterPromFleet(await withSession((s) => s.call('fleet.prometheus', { connection })), o);
  if (o.out) {
    await fsp.writeFile(o.out, format === 'json' ? JSON.stringify(fleet, null, 2) + '\n' : formatPromFleetText(fleet));
    printText(`${fleet.nodes.length} node(s) from ${fleet.prometheus} summarised into ${o.out}\n`);
  } else if (format === 'json') printJson(fleet);
  else printText(formatPromFleetText(fleet));
  if (fleet.warnings.length) process.stderr.write(`store-doctor: Prometheus answered with ${fleet.warnings.length} warning(s): the data may be partial\n`);
  if (fleet.totals.outputsAtRisk > 0 || fleet.totals.guardsDown > 0) process.exitCode = EXIT.FINDINGS;
}
