/**
 * Writes one fixture folder: the timeline (harness.log), store snapshots (tar.gz with paths
 * `store/<bucket>/…` + a manifest), `aws s3api`-shaped listings, the configs and Fluent Bit's log
 * of every run, version.txt, expected.json (facts derived from the files) and the README.
 * Absolute paths of the work folder are relocated to `/data/<scenario>` in every text file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { readObjects, s3apiListMultipartUploads, s3apiListObjectsV2, s3apiListObjectVersions, type BucketSnapshot } from '../support/bucket';
import type { Lab } from '../support/lab';
import type { FluentBitProcess } from '../support/process';
import { logFacts, storeFacts, type StoreStageFacts } from './facts';

export interface RunRecord {
  label: string;
  bin: string;
  version: string;
  config: string;
  pid: number;
  startedAt: string;
  stoppedWith: string | null;
  exit: { code: number | null; signal: string | null } | null;
  process: FluentBitProcess;
}

export interface StageRecord {
  name: string;
  at: string;
  storeTar?: string;
  store?: StoreStageFacts;
  s3?: {
    listObjectsV2: string;
    listObjectVersions?: string;
    listMultipartUploads?: string;
    objectCount: number;
    objects: { key: string; size: number; etag: string; records: number; nulBytes: number; badLines: number; gzip: boolean }[];
    inProgressMultipartUploads: BucketSnapshot['uploads'];
    versions?: BucketSnapshot['versions'];
  };
}

export class Recorder {
  readonly runs: RunRecord[] = [];
  readonly stages: StageRecord[] = [];
  readonly files = new Set<string>();
  private timeline: string[] = [];

  constructor(
    readonly lab: Lab,
    readonly scenario: string,
    readonly out: string,
  ) {
    mkdirSync(out, { recursive: true });
  }

  relocate(text: string): string {
    return text.split(this.lab.dir).join(`/data/${this.scenario}`);
  }

  note(msg: string): void {
    this.timeline.push(`[harness] ${new Date().toISOString()} ${msg}`);
  }

  private writeText(name: string, text: string): void {
    writeFileSync(path.join(this.out, name), this.relocate(text));
    this.files.add(name);
  }

  start(config: string, label: string, bin?: { path: string; version: string }): FluentBitProcess {
    const b = bin ?? { path: this.lab.fb.path, version: this.lab.fb.version };
    const p = this.lab.start(config, label, b.path);
    this.runs.push({
      label,
      bin: b.path,
      version: b.version,
      config,
      pid: p.pid,
      startedAt: p.startedAt.toISOString(),
      stoppedWith: null,
      exit: null,
      process: p,
    });
    this.note(`started fluent-bit ${b.version} pid=${p.pid} (${label}) -c ${path.basename(config)}`);
    return p;
  }

  async stop(p: FluentBitProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const r = this.runs.find((x) => x.process === p)!;
    this.note(`sending ${signal} to pid=${p.pid}`);
    r.stoppedWith = signal;
    const e = await p.stop(signal, 60_000);
    r.exit = { code: e.code, signal: e.signal };
    this.note(`pid=${p.pid} exited (code ${e.code}, signal ${e.signal})`);
  }

  /** Snapshot of the store (tar + manifest + facts) and of the bucket (listings + object facts). */
  async stage(name: string, opts: { store?: boolean; bucket?: boolean; versions?: boolean } = {}): Promise<StageRecord> {
    const st: StageRecord = { name, at: new Date().toISOString() };
    const storeDir = path.join(this.lab.dir, 'store');
    if (opts.store !== false && existsSync(storeDir)) {
      const tar = `store-${name}.tar.gz`;
      execFileSync('tar', ['--format=posix', '-C', this.lab.dir, '-czf', path.join(this.out, tar), 'store']);
      this.files.add(tar);
      const manifest = execFileSync('find', ['store', '-printf', '%y %TY-%Tm-%TdT%TH:%TM:%TS %s %p\\n'], { cwd: this.lab.dir, encoding: 'utf8' });
      this.writeText(
        `store-${name}.manifest.txt`,
        manifest
          .split('\n')
          .filter(Boolean)
          .sort((a, b) => a.split(' ')[3].localeCompare(b.split(' ')[3]))
          .join('\n') + '\n',
      );
      st.storeTar = tar;
      st.store = storeFacts(this.lab.dir, this.lab.bucket);
      this.note(`snapshot ${tar} (${st.store.chunkFiles.length} chunk files)`);
    }
    if (opts.bucket !== false) {
      const snap = await this.lab.snapshot();
      const lo = `s3api-list-objects-v2-${name}.json`;
      this.writeText(lo, JSON.stringify(s3apiListObjectsV2(snap), null, 4));
      const objs = await readObjects(this.lab.s3, this.lab.bucket, snap.objects);
      st.s3 = {
        listObjectsV2: lo,
        objectCount: snap.objects.length,
        objects: snap.objects.map((o) => {
          const r = objs.find((x) => x.key === o.key)!;
          return { key: o.key, size: o.size, etag: o.etag, records: r.records.length, nulBytes: r.nulBytes, badLines: r.bad.length, gzip: r.gzip };
        }),
        inProgressMultipartUploads: snap.uploads,
      };
      if (snap.uploads.length) {
        st.s3.listMultipartUploads = `s3api-list-multipart-uploads-${name}.json`;
        this.writeText(st.s3.listMultipartUploads, JSON.stringify(s3apiListMultipartUploads(snap), null, 4));
      }
      if (opts.versions) {
        st.s3.listObjectVersions = `s3api-list-object-versions-${name}.json`;
        this.writeText(st.s3.listObjectVersions, JSON.stringify(s3apiListObjectVersions(snap), null, 4));
        st.s3.versions = snap.versions;
      }
      this.note(`s3 listing ${this.lab.bucket} -> ${lo} (${snap.objects.length} objects, ${snap.uploads.length} open uploads)`);
    }
    this.stages.push(st);
    return st;
  }

  /** Counts writes of `sequence/index_metadata/seq_index_0` (inotify) and the values read at each. */
  watchSeqIndex(): { stop(): { writes: number; values: string[] } } {
    const dir = path.join(this.lab.root, 'sequence', 'index_metadata');
    let w: FSWatcher | null = null;
    let writes = 0;
    const values: string[] = [];
    const poll = setInterval(() => {
      if (w || !existsSync(dir)) return;
      w = watch(dir, (_ev, f) => {
        if (f !== 'seq_index_0') return;
        writes++;
        try {
          const v = readFileSync(path.join(dir, f), 'latin1');
          if (values[values.length - 1] !== v) values.push(v);
        } catch {
          /* deleted meanwhile */
        }
      });
    }, 5);
    return {
      stop: () => {
        clearInterval(poll);
        (w as FSWatcher | null)?.close();
        return { writes, values };
      },
    };
  }

  /** Writes logs, configs, version.txt, harness.log, expected.json and README.md. */
  finish(meta: { title: string; purpose: string; procedure: string[]; observations: Record<string, unknown>; command: string }): void {
    const fb = this.lab.fb;
    const logs = this.runs.map((r) => `===== ${r.label}: fluent-bit ${r.version} pid=${r.pid} =====\n${trimLines(r.process.log(), 2000)}`);
    this.writeText('fluent-bit.log', logs.join('\n'));
    const configs = [...new Set(this.runs.map((r) => r.config))];
    configs.forEach((c, i) => {
      const name = configs.length === 1 ? 'fluent-bit.conf' : `fluent-bit.${this.runs.find((r) => r.config === c)!.label}.conf`;
      this.writeText(name, readFileSync(c, 'utf8'));
      if (i === configs.length - 1 && configs.length > 1) this.writeText('fluent-bit.conf', readFileSync(c, 'utf8'));
    });
    const versions = [...new Set(this.runs.map((r) => `${r.bin}\n${execFileSync(r.bin, ['--version'], { encoding: 'utf8' })}`))];
    this.writeText('version.txt', versions.map((v) => v.split('\n').slice(1).join('\n')).join(''));
    meta.observations = {
      ...meta.observations,
      runExits: this.runs.map(
        (r) => `${r.label} (${r.version}): ${r.stoppedWith} → exit ${r.exit?.code ?? '-'}${r.exit?.signal ? `, signal ${r.exit.signal}` : ''}`,
      ),
    };
    const expected = {
      scenario: this.scenario,
      observations: meta.observations,
      bucket: this.lab.bucket,
      fluentBit: { version: fb.version, binary: fb.path, sha256: sha256(fb.path) },
      storeLayout: `store/${this.lab.bucket}/<stream>/<chunk-file>  (store_dir=<run>/store; out_s3 appends the bucket name)`,
      runs: this.runs.map((r) => ({
        label: r.label,
        version: r.version,
        binarySha256: sha256(r.bin),
        pid: r.pid,
        startedAt: r.startedAt,
        stoppedWith: r.stoppedWith,
        exit: r.exit,
        log: logFacts(this.relocate(r.process.log())),
      })),
      stages: Object.fromEntries(this.stages.map((s) => [s.name, { at: s.at, storeTar: s.storeTar, store: s.store, s3: s.s3 }])),
    };
    this.note('done');
    this.writeText('harness.log', this.timeline.join('\n') + '\n');
    this.writeText('expected.json', JSON.stringify(expected, null, 2) + '\n');
    this.writeText('README.md', readme(this, meta));
  }
}

function trimLines(text: string, max: number): string {
  const l = text.split('\n');
  return l.length <= max ? text : [...l.slice(0, max / 2), `… (${l.length - max} lines left out by the harness) …`, ...l.slice(-max / 2)].join('\n');
}

function sha256(file: string): string {
  return execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0];
}

function readme(r: Recorder, meta: { title: string; purpose: string; procedure: string[]; observations: Record<string, unknown>; command: string }): string {
  const fb = r.lab.fb;
  const runBins = [...new Set(r.runs.map((x) => `v${x.version} (\`${x.bin}\`, sha256 \`${sha256(x.bin)}\`)`))];
  const obs = Object.entries(meta.observations).map(([k, v]) => `- **${k}**: ${typeof v === 'string' ? v : `\`${JSON.stringify(v)}\``}`);
  const files = [...r.files, 'README.md'].sort();
  return `# ${r.scenario} (Fluent Bit v${fb.version}): ${meta.title}

${meta.purpose}

## Provenance

- Made by the project's harness: \`${meta.command}\` on ${r.stages[0]?.at.slice(0, 10) ?? new Date().toISOString().slice(0, 10)} (UTC; \`TZ=UTC\` for Fluent Bit, so stream names and key dates agree).
- Fluent Bit: ${runBins.join('; ')}. Minimal official builds, see \`../shared/fluent-bit/README.md\`.
- S3 server: the project's Ceph RGW on 127.0.0.1 (\`test/support/rgw.ts\`), bucket \`${r.lab.bucket}\` (made by the harness; Fluent Bit never creates one). Fluent Bit got the credentials from \`AWS_ACCESS_KEY_ID\`/\`AWS_SECRET_ACCESS_KEY\` in its own environment only.
- Process control: Fluent Bit started with \`fluent-bit -c <config>\`, stopped by PID with \`SIGTERM\` (graceful) or \`SIGKILL\` (crash); \`harness.log\` has the exact times and exit statuses.
- Store snapshots: \`tar --format=posix -C <work> -czf store-<stage>.tar.gz store\`, taken while Fluent Bit was stopped (after its exit, or right after SIGKILL). Paths start with \`store/<bucket>/\`. \`store-<stage>.manifest.txt\` lists type, mtime, size and path of every entry.
- Listings: \`s3api-list-objects-v2-<stage>.json\` (and \`list-multipart-uploads\` / \`list-object-versions\` where relevant) in the JSON shape of \`aws s3api\`, taken with the AWS SDK right after the stage.
- \`fluent-bit.log\`: every run's stdout+stderr, in order; each run starts with a \`=====\` line added by the harness.
- \`expected.json\`: facts derived mechanically by \`test/fluent-bit/harness/facts.ts\` — chunk headers read byte by byte (not by the engine's scanner), JSON lines counted, NUL bytes counted in chunks and in the uploaded objects, Fluent Bit's log lines parsed into events. \`observations\` is derived from those facts by the scenario code, not written by hand.
- Absolute paths of the work folder were relocated to \`/data/${r.scenario}\` in configs, logs and listings; the tars hold relative paths.

## Exact procedure

${meta.procedure.map((s, i) => `${i + 1}. ${s}`).join('\n')}

## Observations (derived from the data)

${obs.join('\n')}

## Files

${files.map((f) => `- \`${f}\``).join('\n')}
`;
}
