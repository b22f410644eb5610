/**
 * Generated node reports (the guard's /report.json) for the fleet tests: `n` nodes with a known,
 * deterministic mix — every 7th node has an output at risk, every 5th quarantined chunks, every
 * 11th damaged chunks, every 13th a key format without a node-unique part, node i has i old backlog chunks of 1000 bytes, aged i minutes.
 */
import { NODE_REPORT_SCHEMA, type NodeReport } from '../../shared/fleet';

export function nodeReport(i: number): NodeReport {
  const atRisk = i % 7 === 0;
  const at = new Date(Date.UTC(2026, 11, 1, 12, 0, 0)).toISOString();
  return {
    schema: NODE_REPORT_SCHEMA,
    node: `node-${String(i).padStart(3, '0')}`,
    generatedAt: at,
    version: '0.1.0',
    storePath: '/var/lib/fluent-bit/s3',
    guard: {
      state: atRisk ? 'refused' : 'watching',
      startedAt: at,
      stateDir: '/var/lib/store-doctor/guard',
      restores: i % 3,
      lastRestoreAt: i % 3 ? at : null,
      lastRestoreLatencyMs: i % 3 ? 40 + i : null,
      messages: [],
    },
    lastScanSeconds: 0.05,
    roots: [
      {
        bucket: 'logs',
        rootPath: '/var/lib/fluent-bit/s3/logs',
        present: true,
        backlog: [
          { kind: 'current', chunks: 1, bytes: 4096, oldestAgeSeconds: 5 },
          { kind: 'old', chunks: i, bytes: i * 1000, oldestAgeSeconds: i ? i * 60 : null },
          { kind: 'multipart', chunks: 0, bytes: 0, oldestAgeSeconds: null },
          { kind: 'quarantine', chunks: i % 5 === 0 ? 2 : 0, bytes: i % 5 === 0 ? 8192 : 0, oldestAgeSeconds: i % 5 === 0 ? 3600 : null },
        ],
        quarantineChunks: i % 5 === 0 ? 2 : 0,
        damagedChunks: i % 11 === 0 ? 1 : 0,
      },
    ],
    outputs: [
      {
        id: 0,
        displayName: 's3.0',
        bucket: 'logs',
        rootPath: '/var/lib/fluent-bit/s3/logs',
        persistedIndex: atRisk ? null : 100 + i,
        guardedIndex: 100 + i,
        guardedFinal: !atRisk,
        restores: i % 3,
        lastRestoreAt: i % 3 ? at : null,
        sequenceProtected: false,
        sequencePresent: !atRisk,
        risks: atRisk ? [`seq_index_0 is missing or unreadable: the next start counts $INDEX from 0 (the guard keeps ${100 + i})`] : [],
        // every 13th node writes a key format without a node-unique part: those collide across nodes
        keyFormat: i % 13 === 0 ? '/logs/$TAG/$INDEX' : '/logs/$TAG/$UUID/$INDEX',
        endpoint: null,
        keyNodeUnique: i % 13 !== 0,
      },
    ],
  };
}
