// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { buildIndex, EMPTY_FILTER, query, useChunks, type ChunkFilter, type SortKey } from '../../renderer/src/state/chunks';
import { canApply, createPlanFlow, expectedBucket, type Plan } from '../../renderer/src/features/repair/state';
import { selectWritesBlocked, useSession } from '../../renderer/src/state/session';
import { progressFraction, useTasks } from '../../renderer/src/state/tasks';
import { useTheme } from '../../renderer/src/state/theme';
import { connectionInput } from '../../renderer/src/state/evidence';
import type { ChunkInfo, Draft } from '../../shared/model';
import { syntheticReport } from '../e2e/support/synthetic';

const report = syntheticReport(1000, 4);
const ix = buildIndex(report);
const rows = ix.rows;
const run = (f: Partial<ChunkFilter>, key: SortKey = 'none', dir: 'asc' | 'desc' = 'asc') =>
  [...query(ix, { ...EMPTY_FILTER, ...f }, key, dir).ids].map((i) => rows[i]);

describe('chunks slice and the column index', () => {
  beforeEach(() => useChunks.getState().reset());

  it('takes every chunk of every stream with a unique id', () => {
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((r) => r.id)).size).toBe(1000);
    expect(ix.streams).toHaveLength(4);
    expect(buildIndex(null).rows).toEqual([]);
  });

  it("filters by stream, tag (substring, case-insensitive), status, record time and a finding's chunks; counts per status and tag", () => {
    const stream = ix.streams[1];
    const byStream = run({ stream });
    expect(byStream.length).toBeGreaterThan(0);
    expect(byStream.every((r) => r.chunk.stream === stream)).toBe(true);
    const byTag = run({ tag: 'APP.' });
    expect(byTag.every((r) => r.chunk.tag!.startsWith('app.'))).toBe(true);
    expect(byTag.length).toBe(rows.filter((r) => r.chunk.tag!.startsWith('app.')).length);
    const damaged = run({ status: 'damaged' });
    expect(damaged.length).toBe(rows.filter((r) => ['truncated', 'crc-mismatch', 'too-short', 'bad-magic'].includes(r.chunk.status)).length);
    expect(damaged.length).toBeGreaterThan(0);
    expect(run({ status: 'zero-byte' }).every((r) => r.chunk.status === 'zero-byte')).toBe(true);
    const some = [rows[3].chunk.path, rows[700].chunk.path];
    expect(run({ paths: { label: 'x', chunkPaths: some, rootPath: rows[3].rootPath } }).map((r) => r.chunk.path)).toEqual(some);
    expect(run({ paths: { label: 'x', chunkPaths: some, rootPath: '/elsewhere' } })).toEqual([]);
    // record time: synthetic records span [base - 60 s, base]
    expect(run({ from: '2026-11-29T11:59:30Z' })).toHaveLength(1000);
    expect(run({ from: '2026-11-29T12:00:01Z' })).toHaveLength(0);
    expect(run({ to: '2026-11-29T11:58:59Z' })).toHaveLength(0);
    const r = query(ix, { ...EMPTY_FILTER, stream }, 'none', 'asc');
    const counted = Object.fromEntries(ix.statuses.map((s, i) => [s, r.statusCounts[i]]));
    expect(counted.ok).toBe(byStream.filter((x) => x.chunk.status === 'ok').length);
    expect([...r.tagCounts].reduce((a, b) => a + b, 0)).toBe(byStream.length);
  });

  it('sorts on every column in both directions, unknown values last either way', () => {
    const cmp = {
      stream: (r: (typeof rows)[number]) => r.chunk.stream,
      file: (r: (typeof rows)[number]) => r.chunk.name,
      tag: (r: (typeof rows)[number]) => r.chunk.tag ?? '',
      status: (r: (typeof rows)[number]) => r.chunk.status,
      size: (r: (typeof rows)[number]) => r.chunk.fileSize,
      records: (r: (typeof rows)[number]) => r.chunk.records ?? NaN,
      age: (r: (typeof rows)[number]) => (r.chunk.mtime ? Date.parse(r.chunk.mtime) : NaN),
    };
    for (const [key, f] of Object.entries(cmp) as [Exclude<SortKey, 'none'>, (r: (typeof rows)[number]) => string | number][]) {
      for (const dir of ['asc', 'desc'] as const) {
        const out = run({}, key, dir).map(f);
        expect(out).toHaveLength(1000);
        for (let i = 1; i < out.length; i++) {
          const ok = dir === 'asc' ? out[i - 1] <= out[i] : out[i - 1] >= out[i];
          if (!ok) throw new Error(`${key} ${dir}: ${String(out[i - 1])} before ${String(out[i])}`);
        }
      }
    }
    const withUnknown = syntheticReport(10, 1);
    (withUnknown.roots[0].streams[0].chunks[2] as Draft<ChunkInfo>).mtime = null;
    const u = buildIndex(withUnknown);
    for (const dir of ['asc', 'desc'] as const) expect(u.rows[[...query(u, EMPTY_FILTER, 'age', dir).ids].at(-1)!].chunk.mtime).toBeNull();
  });

  it('toggleSort flips direction on the same key; size and records start largest-first, the rest A/oldest first', () => {
    useChunks.getState().toggleSort('size');
    expect(useChunks.getState()).toMatchObject({ sortKey: 'size', sortDir: 'desc' });
    useChunks.getState().toggleSort('size');
    expect(useChunks.getState().sortDir).toBe('asc');
    useChunks.getState().toggleSort('age');
    expect(useChunks.getState()).toMatchObject({ sortKey: 'age', sortDir: 'asc' });
    useChunks.getState().toggleSort('tag');
    expect(useChunks.getState()).toMatchObject({ sortKey: 'tag', sortDir: 'asc' });
    useChunks.getState().showOnly('CHUNK_DAMAGED: 2 chunks', ['a/b', 'a/c'], null);
    expect(useChunks.getState()).toMatchObject({ sortKey: 'none', filter: { status: 'all', paths: { chunkPaths: ['a/b', 'a/c'] } } });
  });
});

function plan(partial: Partial<Plan> = {}): Plan {
  return {
    action: 'repair-index',
    storePath: '/s',
    rootPath: '/s/bucket-a',
    summary: 's',
    why: [],
    steps: [{ kind: 'write-file', target: '/s/x', description: 'd' }],
    warnings: [],
    refusals: [],
    ...partial,
  };
}

describe('plan flow slice', () => {
  it('walks choose → planning → review → applying → applied and keeps the applied result for undo', () => {
    const flow = createPlanFlow('repair-index');
    flow.getState().planning();
    expect(flow.getState().phase).toBe('planning');
    flow.getState().planned(plan());
    expect(flow.getState().phase).toBe('review');
    flow.getState().applying('t1');
    expect(flow.getState()).toMatchObject({ phase: 'applying', taskId: 't1' });
    const result = { action: 'repair-index' as const, applied: true, summary: 'ok', steps: [], undoId: 'u1', verified: true, warnings: [] };
    flow.getState().applied(result);
    expect(flow.getState()).toMatchObject({ phase: 'applied', taskId: null, lastApplied: result });
    flow.getState().setParams({ action: 'undo' });
    expect(flow.getState()).toMatchObject({ phase: 'choose', plan: null, lastApplied: result });
    flow.getState().applied({ ...result, action: 'undo' });
    expect(flow.getState().lastApplied).toBeNull();
  });

  it('a failure returns to review when there is a plan, and cancel keeps a message', () => {
    const flow = createPlanFlow('replay');
    flow.getState().fail('nope');
    expect(flow.getState()).toMatchObject({ phase: 'choose', error: 'nope' });
    flow.getState().planned(plan());
    flow.getState().fail('apply failed');
    expect(flow.getState()).toMatchObject({ phase: 'review', error: 'apply failed' });
    flow.getState().cancelled('Cancelled.');
    expect(flow.getState().phase).toBe('cancelled');
  });

  it('expects the bucket of the plan root and only allows apply when it is typed exactly', () => {
    const roots = [
      { path: '/s/bucket-a', bucket: 'bucket-a' },
      { path: '/s/bucket-b', bucket: 'bucket-b' },
    ];
    expect(expectedBucket(plan(), roots, null)).toBe('bucket-a');
    expect(expectedBucket(plan({ rootPath: null }), roots, 'from-output')).toBe('from-output');
    expect(expectedBucket(plan({ rootPath: null }), roots, null)).toBeNull();
    const flow = createPlanFlow('repair-index');
    flow.getState().planned(plan());
    expect(canApply(flow.getState(), 'bucket-a', false)).toBe(false);
    flow.getState().setConfirm('bucket-');
    expect(canApply(flow.getState(), 'bucket-a', false)).toBe(false);
    flow.getState().setConfirm('bucket-a');
    expect(canApply(flow.getState(), 'bucket-a', false)).toBe(true);
    expect(canApply(flow.getState(), 'bucket-a', true)).toBe(false);
  });

  it('refusals block apply unless forceable and forced', () => {
    const flow = createPlanFlow('repair-index');
    flow.getState().planned(plan({ refusals: [{ reason: 'Fluent Bit is running', forceable: true }] }));
    flow.getState().setConfirm('bucket-a');
    expect(canApply(flow.getState(), 'bucket-a', false)).toBe(false);
    flow.setState({ params: { ...flow.getState().params, force: true } });
    expect(canApply(flow.getState(), 'bucket-a', false)).toBe(true);
    flow.getState().planned(plan({ refusals: [{ reason: 'no index', forceable: false }] }));
    flow.getState().setConfirm('bucket-a');
    expect(canApply(flow.getState(), 'bucket-a', false)).toBe(false);
    flow.getState().planned(plan({ steps: [] }));
    flow.getState().setConfirm('bucket-a');
    expect(canApply(flow.getState(), 'bucket-a', false)).toBe(false);
  });
});

describe('session, tasks, theme, connection', () => {
  it('store.changed for the opened store blocks writes; for another store it is ignored; reopening clears it', () => {
    const opened = { storeId: 's1', report };
    useSession.getState().setOpened(opened);
    useSession.getState().storeChanged({ storeId: 'other', paths: ['x'], at: 'now' });
    expect(selectWritesBlocked(useSession.getState())).toBe(false);
    useSession.getState().storeChanged({ storeId: 's1', paths: ['x'], at: 'now' });
    expect(selectWritesBlocked(useSession.getState())).toBe(true);
    useSession.getState().setOpened(opened);
    expect(selectWritesBlocked(useSession.getState())).toBe(false);
    useSession.getState().close();
    expect(useSession.getState()).toMatchObject({ opened: null, view: 'open' });
  });

  it('tracks task progress and fractions', () => {
    useTasks.getState().start('t', 'store.open', 'Scanning');
    useTasks.getState().progress('t', { task: 'scan', done: 5, total: 20 });
    expect(progressFraction(useTasks.getState().tasks.t.progress)).toBe(0.25);
    expect(progressFraction({ task: 'x', done: 1, total: null })).toBeNull();
    expect(progressFraction({ task: 'x', done: 1, total: null, bytes: 50, totalBytes: 100 })).toBe(0.5);
    useTasks.getState().progress('unknown', { task: 'scan', done: 1, total: 1 });
    expect(useTasks.getState().tasks.unknown).toBeUndefined();
    useTasks.getState().finish('t');
    expect(useTasks.getState().tasks).toEqual({});
  });

  it('cycles the theme system → light → dark → system', () => {
    useTheme.getState().setMode('system');
    useTheme.getState().cycle();
    expect(useTheme.getState().mode).toBe('light');
    useTheme.getState().cycle();
    expect(useTheme.getState().mode).toBe('dark');
    useTheme.getState().cycle();
    expect(useTheme.getState().mode).toBe('system');
  });

  it('leaves blank connection fields out of the request', () => {
    expect(connectionInput({ profile: ' ', region: 'eu-west-1', endpoint: '', pathStyle: false })).toEqual({ region: 'eu-west-1' });
    expect(connectionInput({ profile: 'p', region: '', endpoint: 'http://127.0.0.1:9000', pathStyle: true })).toEqual({
      profile: 'p',
      endpoint: 'http://127.0.0.1:9000',
      pathStyle: true,
    });
  });
});

describe('error sentences', () => {
  it('names what failed and the file, once', async () => {
    const { describeError } = await import('../../renderer/src/actions/run');
    const { ClientError } = await import('../../renderer/src/client');
    expect(describeError(new ClientError({ code: 'failed', message: 'bad magic bytes', file: '/s/a.flb' }), 'Reading a.flb')).toBe(
      'Reading a.flb failed: bad magic bytes (file: /s/a.flb).',
    );
    expect(describeError(new ClientError({ code: 'not-found', message: 'no such file: /s/x.', file: '/s/x' }))).toBe('no such file: /s/x.');
    expect(describeError(new Error('boom'), 'Export')).toBe('Export failed: boom');
  });
});
