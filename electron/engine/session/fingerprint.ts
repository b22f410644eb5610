/**
 * Fingerprints of what a plan rests on — the scan of its root, the config, the bucket evidence,
 * the state of each local path it changes — computed the same way at plan time and at apply time
 * (in this session, or in another process from a saved plan). No file content is read: files are
 * compared by size, mtime and inode; the index planner also checks the bytes it replaces.
 */
import { createHash, type Hash } from 'node:crypto';
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import type { FluentBitConfig, PlanBasis, PlanRoot, RootReport, S3Evidence, StoreReport, StreamInfo } from '../../../shared/model';

const memo = new WeakMap<object, string>();

function hashOf(feed: (h: Hash) => void): string {
  const h = createHash('sha256');
  feed(h);
  return h.digest('hex');
}

/**
 * A stream's digest, kept per stream object (report types are deep-readonly: shared/model/store.ts), so
 * a plan on a 100k-chunk store hashes only the streams that changed since the last plan — not
 * every chunk again (54 ms per plan and per apply before). The chunk list's identity is checked too.
 */
const streamDigests = new WeakMap<StreamInfo, { chunks: StreamInfo['chunks']; digest: string }>();

function streamDigest(s: StreamInfo): string {
  const hit = streamDigests.get(s);
  if (hit && hit.chunks === s.chunks) return hit.digest;
  const digest = hashOf((h) => {
    h.update(`s\0${s.name}\0${s.kind}\0`);
    for (const c of s.chunks) h.update(`c\0${c.name}\0${c.fileSize}\0${c.status}\0${c.contentLengthField}\0${c.metaLength}\0${c.mtime ?? ''}\0`);
  });
  streamDigests.set(s, { chunks: s.chunks, digest });
  return digest;
}

function feedRoot(h: Hash, r: RootReport): void {
  h.update(`root\0${r.bucket}\0`);
  for (const s of r.streams) h.update(`s\0${streamDigest(s)}\0`);
  for (const q of r.seqIndex) h.update(`q\0${q.fileName}\0${q.rawHex}\0${q.fileSize}\0`);
  h.update(`m\0${r.sequence.present}\0${r.sequence.markerChunks.join('\0')}\0`);
}

/** The scan of one root (or of every root when `rootPath` is null). */
export function storeFingerprint(report: StoreReport, rootPath: string | null): string {
  const roots = rootPath ? report.roots.filter((r) => r.path === rootPath) : report.roots;
  return hashOf((h) => roots.forEach((r) => feedRoot(h, r)));
}

export function configFingerprint(config: FluentBitConfig | null): string | null {
  if (!config) return null;
  const hit = memo.get(config);
  if (hit) return hit;
  const v = hashOf((h) => h.update(JSON.stringify(config.outputs)));
  memo.set(config, v);
  return v;
}

export function evidenceFingerprint(ev: S3Evidence | null | undefined): string | null {
  if (!ev) return null;
  const hit = memo.get(ev);
  if (hit) return hit;
  const v = hashOf((h) => {
    h.update(`${ev.source}\0${ev.bucket ?? ''}\0${ev.complete}\0${ev.coverage ?? ''}\0${ev.focus?.since ?? ''}\0${(ev.listedPrefixes ?? []).join('\0')}\0`);
    for (const o of ev.objects) h.update(`o\0${o.key}\0${o.etag ?? ''}\0${o.size}\0${o.lastModified ?? ''}\0`);
    for (const o of ev.versions ?? []) h.update(`v\0${o.key}\0${o.versionId}\0${o.etag ?? ''}\0${o.isLatest}\0${o.isDeleteMarker}\0`);
    for (const u of ev.multipartUploads ?? []) h.update(`u\0${u.key}\0${u.uploadId}\0${(u.parts ?? []).map((p) => `${p.partNumber}:${p.etag}`).join(',')}\0`);
    h.update(`V${ev.versions === null}M${ev.multipartUploads === null}`);
  });
  memo.set(ev, v);
  return v;
}

/**
 * `absent`, `dir`, `link:<target>`, or `file:<size>:<mtimeMs>:<ino>`; with synchronous calls (an
 * lstat is a quick metadata lookup: no thread-pool round trip).
 */
function pathState(p: string): string {
  let st: Stats | undefined;
  try {
    st = lstatSync(p, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  if (!st) return 'absent';
  if (st.isDirectory()) return 'dir';
  if (st.isSymbolicLink()) {
    try {
      return `link:${readlinkSync(p)}`;
    } catch {
      return 'link:?';
    }
  }
  return `${st.isFile() ? 'file' : 'other'}:${st.size}:${st.mtimeMs}:${st.ino}`;
}

export async function basisOf(
  report: StoreReport,
  rootPath: string | null,
  config: FluentBitConfig | null,
  evidence: S3Evidence | null,
  paths: string[],
): Promise<PlanBasis> {
  // A replay's basis holds every chunk it sends: synchronous lstats, the event loop let go every 256.
  const sorted = [...new Set(paths)].sort();
  const files: PlanBasis['files'] = [];
  for (const p of sorted) {
    files.push({ path: p, state: pathState(p) });
    if (files.length % 256 === 0) await new Promise<void>((r) => setImmediate(r));
  }
  return { store: storeFingerprint(report, rootPath), config: configFingerprint(config), evidence: evidenceFingerprint(evidence), files };
}

/** What differs between the basis a plan was made on and now, one line each (empty: nothing). */
export function basisChanges(then: PlanBasis, now: PlanBasis): string[] {
  const out: string[] = [];
  if (then.store !== now.store) out.push('the store changed since it was scanned for the plan (chunks, streams or seq_index files)');
  if (then.config !== now.config)
    out.push(now.config === null ? 'the Fluent Bit config was unloaded' : 'the Fluent Bit config is not the one the plan was made with');
  if (then.evidence !== now.evidence) out.push(now.evidence === null ? 'the bucket evidence is gone' : 'the bucket evidence was replaced or changed');
  if (then.root && !sameRoot(then.root, now.root))
    out.push(`${then.root.path} (root folder) changed (${rootText(then.root)} then, ${now.root ? rootText(now.root) : 'no root'} now)`);
  const nowFiles = new Map(now.files.map((f) => [f.path, f.state] as const));
  for (const f of then.files) {
    const cur = nowFiles.get(f.path) ?? 'absent';
    if (cur !== f.state)
      out.push(
        `${f.path} changed (${f.state === 'absent' ? 'it did not exist' : f.state.split(':')[0]} then, ${cur === 'absent' ? 'gone' : cur.split(':')[0]} now)`,
      );
  }
  return out;
}

function sameRoot(a: PlanRoot, b: PlanRoot | undefined): boolean {
  if (!b) return false;
  const x = a.folder;
  const y = b.folder;
  if (!x || !y) return !x && !y && a.problem === b.problem;
  return x.real === y.real && x.dev === y.dev && x.ino === y.ino;
}

function rootText(r: PlanRoot): string {
  return r.folder ? `${r.folder.real}, device ${r.folder.dev} inode ${r.folder.ino}` : `unresolved: ${r.problem}`;
}
