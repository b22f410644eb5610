/**
 * deploy/kubernetes/ and the Dockerfile, checked without a cluster or a container engine: every
 * manifest validates against the Kubernetes (and prometheus-operator) schemas of kubernetes-models;
 * the DaemonSet has the shape the guard needs; the alert rules use only metrics the guard exports;
 * the Fluent Bit config is one the engine reads; and the image's entrypoint runs the manifests'
 * command lines for real (init container and sidecar) on a real Fluent Bit store.
 */
import { spawn, execFile } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { createGuardMetrics } from '../../electron/engine/guard/metrics';
import { loadConfigFile } from '../../electron/engine/session/config';
import { extractFixture, tempDir } from '../support/fixtures';
import { nodeReport } from '../support/node-reports';

const ROOT = path.resolve(__dirname, '../..');
const DIR = path.join(ROOT, 'deploy/kubernetes');
type Doc = { kind: string; apiVersion: string; [k: string]: unknown };
const MODELS: Record<string, new (data: never) => { validate(): void }> = { ConfigMap, Namespace, DaemonSet, PrometheusRule, PodMonitor };

function docs(): { file: string; doc: Doc }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((file) => parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8')).map((d) => ({ file, doc: d.toJS() as Doc })));
}
const find = <T>(kind: string) => docs().find((d) => d.doc.kind === kind)!.doc as unknown as T;
type Container = { name: string; args: string[]; securityContext: Record<string, unknown>; volumeMounts: { name: string; mountPath: string }[] };

describe('deploy/kubernetes', () => {
  it('every manifest validates against its schema, and a broken one does not', () => {
    const all = docs();
    expect(all.map((d) => d.doc.kind).sort()).toEqual(['ConfigMap', 'DaemonSet', 'Namespace', 'PodMonitor', 'PrometheusRule']);
    for (const { file, doc } of all) {
      const Model = MODELS[doc.kind];
      expect(Model, `${file}: ${doc.kind}`).toBeDefined();
      expect(() => new Model(doc as never).validate(), file).not.toThrow();
    }
    const kustomize = parseAllDocuments(readFileSync(path.join(DIR, 'kustomization.yaml'), 'utf8'))[0].toJS() as { resources: string[] };
    expect(kustomize.resources.sort()).toEqual(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
        .sort(),
    );
    const ds = find<{ spec: { template: { spec: { containers: Container[] } } } }>('DaemonSet');
    const broken = structuredClone(ds);
    (broken.spec.template.spec.containers[0].securityContext as Record<string, unknown>).readOnlyRootFilesystem = 'yes';
    expect(() => new DaemonSet(broken as never).validate()).toThrow(/readOnlyRootFilesystem must be boolean/);
  });

  it('the DaemonSet: guard sidecar and init container on the same buffer, state on its own hostPath, scraped, locked down', () => {
    const ds = find<{
      spec: {
        template: {
          metadata: { annotations: Record<string, string> };
          spec: {
            shareProcessNamespace: boolean;
            initContainers: Container[];
            containers: (Container & { ports?: { name: string; containerPort: number }[] })[];
            volumes: { name: string; hostPath?: { path: string } }[];
          };
        };
      };
    }>('DaemonSet');
    const pod = ds.spec.template.spec;
    expect(pod.shareProcessNamespace).toBe(true);
    const [init] = pod.initContainers;
    const fb = pod.containers.find((c) => c.name === 'fluent-bit')!;
    const guard = pod.containers.find((c) => c.name === 'store-doctor-guard')!;
    expect(init.args.slice(0, 2)).toEqual(['guard', '/fluent-bit/s3']);
    expect(init.args).toContain('--once');
    expect(guard.args).not.toContain('--once');
    const mount = (c: Container, v: string) => c.volumeMounts.find((m) => m.name === v)?.mountPath;
    for (const c of [init, fb, guard]) expect(mount(c, 'buffer'), c.name).toBe('/fluent-bit/s3');
    expect(mount(fb, 'guard-state')).toBeUndefined();
    expect(mount(guard, 'guard-state')).toBe(guard.args[guard.args.indexOf('--state-dir') + 1]);
    const vol = (n: string) => pod.volumes.find((v) => v.name === n)!.hostPath!.path;
    expect(vol('buffer')).not.toBe(vol('guard-state'));
    expect(vol('guard-state').startsWith(vol('buffer') + '/')).toBe(false);
    const port = guard.ports!.find((p) => p.name === 'metrics')!.containerPort;
    expect(ds.spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(port),
      'prometheus.io/path': '/metrics',
    });
    // bound to the pod's IP from the downward API, never 0.0.0.0 (issue 17 case 4)
    expect(guard.args[guard.args.indexOf('--metrics') + 1]).toBe(`$(POD_IP):${port}`);
    const env = (guard as Container & { env: { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[] }).env;
    expect(env.find((e) => e.name === 'POD_IP')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'status.podIP' } });
    for (const c of [init, fb, guard])
      expect(c.securityContext, c.name).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
  });

  it('the Fluent Bit config is read by the engine: an $INDEX S3 output whose store_dir is the buffer mount', async () => {
    const cm = find<{ data: Record<string, string> }>('ConfigMap');
    const t = tempDir('sd-cm-');
    try {
      const file = path.join(t.dir, 'fluent-bit.conf');
      writeFileSync(file, cm.data['fluent-bit.conf']);
      const config = await loadConfigFile(file);
      const s3 = config.outputs.filter((o) => o.s3);
      expect(s3).toHaveLength(1);
      expect(s3[0].s3).toMatchObject({ storeDir: '/fluent-bit/s3', hasIndex: true });
      expect(config.warnings.filter((w) => w.fatal)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('the alert rules use only metrics the guard exports', async () => {
    const rule = find<{ spec: { groups: { rules: { alert: string; expr: string }[] }[] } }>('PrometheusRule');
    const exported = new Set((await createGuardMetrics(() => nodeReport(1), { rootsReplaced: () => [] }).registry.getMetricsAsJSON()).map((m) => m.name));
    const alerts = rule.spec.groups.flatMap((g) => g.rules);
    expect(alerts.map((a) => a.alert)).toEqual([
      'StoreDoctorIndexBelowGuarded',
      'StoreDoctorIndexMissing',
      'StoreDoctorGuardRefused',
      'StoreDoctorRootReplaced',
      'StoreDoctorIndexRestored',
      'StoreDoctorBacklogOld',
      'StoreDoctorQuarantineNotEmpty',
      'StoreDoctorDamagedChunks',
      'StoreDoctorKeyCollisionAcrossNodes',
      'StoreDoctorGuardDown',
    ]);
    for (const a of alerts) {
      const used = [...a.expr.matchAll(/\bstore_doctor_[a-z_]+/g)].map((m) => m[0]);
      expect(used.length, a.alert).toBeGreaterThan(0);
      for (const name of used) expect(exported.has(name), `${a.alert}: ${name}`).toBe(true);
    }
  });
});

function run(args: string[], timeout = 60_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { cwd: ROOT, timeout }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('Dockerfile (not built here: no container engine, no base images)', { timeout: 120_000 }, () => {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const entrypoint = JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)![1]) as string[];

  it('runs the npm package the tests install (store-doctor, its bin)', () => {
    expect(entrypoint).toEqual(['store-doctor']);
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin).toEqual({ 'store-doctor': 'bin/store-doctor.cjs' });
    expect(dockerfile).toMatch(/^RUN npm install -g \/tmp\/store-doctor\.tgz --offline/m);
  });

  it("the entrypoint with the manifests' arguments: the init container restores, the sidecar serves /healthz", async () => {
    const fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const t = tempDir('sd-entry-');
    try {
      const ds = find<{ spec: { template: { spec: { initContainers: Container[]; containers: Container[] } } } }>('DaemonSet');
      const cm = find<{ data: Record<string, string> }>('ConfigMap');
      // the manifests' paths, mapped onto this machine (the buffer is a real Fluent Bit store)
      const conf = path.join(t.dir, 'fluent-bit.conf');
      writeFileSync(conf, cm.data['fluent-bit.conf'].replace('/fluent-bit/s3', fx.storeDir).replace('my-log-bucket', 'fb-crash'));
      cpSync(path.join(fx.root, 'sequence'), path.join(t.dir, 'sequence-backup'), { recursive: true });
      const map = (a: string) =>
        ({
          '/fluent-bit/s3': fx.storeDir,
          '/fluent-bit/etc/fluent-bit.conf': conf,
          '/var/lib/store-doctor': path.join(t.dir, 'state'),
          '$(POD_IP):9464': '127.0.0.1:0',
          '$(NODE_NAME)': 'node-a',
        })[a] ?? a;
      const init = ds.spec.template.spec.initContainers[0].args.map(map);
      const first = await run(init);
      expect(first.code, first.stderr).toBe(0); // sequence/ present: nothing to restore
      const sidecar = ds.spec.template.spec.containers.find((c) => c.name === 'store-doctor-guard')!.args.map(map);
      const p = spawn(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...sidecar], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr!.on('data', (d) => (err += String(d)));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          const deadline = Date.now() + 30_000;
          const tick = setInterval(() => {
            const m = /on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(err);
            if (m && /guarding /.test(err)) resolve(m[1]);
            else if (Date.now() > deadline || p.exitCode !== null) reject(new Error(err));
            else return;
            clearInterval(tick);
          }, 50);
        });
        const health = await fetch(`${url}/healthz`);
        expect(health.status).toBe(200);
        expect(((await (await fetch(`${url}/report.json`)).json()) as { node: string }).node).toBe('node-a');
      } finally {
        p.kill('SIGTERM');
        await new Promise((r) => p.once('exit', r));
      }
      // the sidecar kept the final value; the init container of the next pod restores it
      const { rmSync, readFileSync: rf } = await import('node:fs');
      rmSync(path.join(fx.root, 'sequence'), { recursive: true });
      const again = await run(init);
      expect(again.code, again.stderr + again.stdout).toBe(0);
      expect(rf(path.join(fx.root, 'sequence/index_metadata/seq_index_0'), 'latin1')).toBe('6');
    } finally {
      fx.cleanup();
      t.cleanup();
    }
  });
});
