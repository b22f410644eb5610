/**
 * A real Prometheus (Debian's package) on 127.0.0.1 for the tests: a generated config that scrapes
 * the given targets every second and loads the given rules; stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { prometheusBin } from './prometheus-bin';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningPrometheus {
  url: string;
  proc: ChildProcess;
  log: () => string;
  stop(): Promise<void>;
}

export async function startPrometheus(
  dir: string,
  opts: {
    targets: string[];
    rulesFile?: string;
    job?: string;
    honorLabels?: boolean;
    scrapeInterval?: string;
    /** Target labels per target (as service discovery and relabelling add them: pod, namespace, endpoint, …). */
    targetLabels?: Record<string, Record<string, string>>;
  },
): Promise<RunningPrometheus> {
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      `global: { scrape_interval: ${opts.scrapeInterval ?? '1s'}, evaluation_interval: 1s, scrape_timeout: ${opts.scrapeInterval ? '4s' : '900ms'} }`,
      ...(opts.rulesFile ? [`rule_files: [${JSON.stringify(opts.rulesFile)}]`] : []),
      'scrape_configs:',
      `  - job_name: ${JSON.stringify(opts.job ?? 'store-doctor-guard')}`,
      ...(opts.honorLabels ? ['    honor_labels: true'] : []),
      opts.targetLabels
        ? `    static_configs: [${opts.targets.map((t) => JSON.stringify({ targets: [t], labels: opts.targetLabels?.[t] ?? {} })).join(', ')}]`
        : `    static_configs: [{ targets: ${JSON.stringify(opts.targets)} }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const proc = spawn(
    prometheusBin(),
    [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  proc.stderr!.on('data', (d) => (log += String(d)));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`prometheus exited ${proc.exitCode}: ${log}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    log: () => log,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      process.kill(proc.pid!, 'SIGTERM');
      await exited;
    },
  };
}
