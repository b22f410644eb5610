/**
 * The guard's node report (`/report.json`, shared/fleet.ts): what it guards, what it kept, what
 * is at risk, the backlog — built from its session's report (kept up to date incrementally) and
 * its roots' states. Cheap: per-stream sums are cached (engine/guard/aggregate.ts).
 */
import * as os from 'node:os';
import { NODE_REPORT_SCHEMA, type NodeReport } from '../../../shared/fleet';
import { rootFacts, type RootFacts } from './aggregate';
import { keyFormatNodeUnique } from '../../../shared/keyformat/node-unique';
import type { Guard } from './daemon';

const age = (now: number, ms: number | null) => (ms === null ? null : Math.max(0, (now - ms) / 1000));

export function buildNodeReport(g: Guard, opts: { node?: string; version: string }): NodeReport {
  const now = Date.now();
  const facts = new Map<string, RootFacts>();
  for (const r of g.report?.roots ?? []) facts.set(r.path, rootFacts(r));
  const roots: NodeReport['roots'] = [];
  const outputs: NodeReport['outputs'] = [];
  const node = (opts.node || os.hostname() || 'unknown').slice(0, 253);
  for (const w of g.roots.values()) {
    const f = facts.get(w.rootPath) ?? null;
    roots.push({
      bucket: w.bucket,
      rootPath: w.rootPath,
      present: !!f,
      backlog: (f?.backlog ?? []).map((b) => ({ kind: b.kind, chunks: b.chunks, bytes: b.bytes, oldestAgeSeconds: age(now, b.oldestMs) })),
      quarantineChunks: f?.quarantineChunks ?? 0,
      damagedChunks: f?.damagedChunks ?? 0,
    });
    for (const o of w.outputs) {
      const persisted = f?.seqIndex.get(o.id) ?? null;
      const guarded = w.guarded.get(o.id) ?? null;
      const risks: string[] = [];
      if (persisted === null && (!w.restoring || w.problem))
        risks.push(`seq_index_${o.id} is missing or unreadable: the next start counts $INDEX from 0${guarded ? ` (the guard keeps ${guarded.value})` : ''}`);
      if (persisted !== null && guarded && persisted < guarded.value)
        risks.push(`seq_index_${o.id} holds ${persisted}, below the guarded ${guarded.value}: uploads from ${persisted} on reuse keys`);
      if (w.problem) risks.push(w.problem);
      outputs.push({
        id: o.id,
        displayName: o.displayName,
        bucket: w.bucket,
        rootPath: w.rootPath,
        persistedIndex: persisted,
        guardedIndex: guarded?.value ?? null,
        guardedFinal: guarded?.final ?? false,
        restores: w.restores.get(o.id) ?? 0,
        lastRestoreAt: w.lastRestoreAt,
        sequenceProtected: f?.markerPresent ?? false,
        sequencePresent: f?.sequencePresent ?? false,
        risks: [...new Set(risks)].slice(0, 20),
        keyFormat: o.keyFormat.slice(0, 1024),
        endpoint: o.endpoint?.slice(0, 1024) ?? null,
        keyNodeUnique: keyFormatNodeUnique(o.keyFormat, node).unique,
      });
    }
  }
  for (const r of g.report?.roots ?? []) {
    if (g.roots.has(r.path)) continue;
    const f = facts.get(r.path)!;
    roots.push({
      bucket: r.bucket,
      rootPath: r.path,
      present: true,
      backlog: f.backlog.map((b) => ({ kind: b.kind, chunks: b.chunks, bytes: b.bytes, oldestAgeSeconds: age(now, b.oldestMs) })),
      quarantineChunks: f.quarantineChunks,
      damagedChunks: f.damagedChunks,
    });
  }
  return {
    schema: NODE_REPORT_SCHEMA,
    node,
    generatedAt: new Date(now).toISOString(),
    version: opts.version,
    storePath: g.opts.store,
    guard: {
      state: g.state,
      stateReason: g.stateReason?.slice(0, 2000) ?? null,
      startedAt: g.startedAt,
      stateDir: g.opts.stateDir,
      restores: g.restores,
      lastRestoreAt: g.lastRestoreAt,
      lastRestoreLatencyMs: g.lastRestoreLatencyMs,
      messages: g.messages.slice(-50).map((m) => m.slice(0, 2000)),
    },
    lastScanSeconds: g.lastScanSeconds,
    roots: roots.slice(0, 1000),
    outputs: outputs.slice(0, 1000),
  };
}
