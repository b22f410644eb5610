/**
 * The chunks of a report as columns for the table (100k+ rows): each column as a typed array of
 * numbers (stream, tag and status as indices into their distinct values), a sort order per
 * column computed once and cached, and one pass that filters, orders and counts per status and
 * tag. Display only: the values are the engine's ChunkInfo fields, nothing is recomputed.
 */
import type { ChunkInfo, ChunkStatus, StoreReport } from '../../../shared/model';
import { DAMAGED_CHUNK_STATUSES } from '../../../shared/model';

export type StatusFilter = 'all' | 'damaged' | ChunkStatus;
export type SortKey = 'none' | 'stream' | 'file' | 'tag' | 'status' | 'size' | 'records' | 'age';
export type SortDir = 'asc' | 'desc';

export interface ChunkRow {
  /** Unique across roots: `<rootPath>::<chunk.path>`. */
  id: string;
  rootPath: string;
  bucket: string;
  chunk: ChunkInfo;
}

export interface ChunkFilter {
  stream: string;
  tag: string;
  status: StatusFilter;
  /** Only these chunks (a finding's chunks: paths relative to their root, of one root when given), with what they are. */
  paths: { label: string; chunkPaths: string[]; rootPath: string | null } | null;
  /** Records between these times (ISO, either may be blank): chunks whose record times overlap. */
  from: string;
  to: string;
}

export const EMPTY_FILTER: ChunkFilter = { stream: '', tag: '', status: 'all', paths: null, from: '', to: '' };

export interface ChunkIndex {
  rows: ChunkRow[];
  streams: string[];
  tags: string[];
  statuses: ChunkStatus[];
  streamOf: Int32Array;
  tagOf: Int32Array;
  statusOf: Int32Array;
  size: Float64Array;
  records: Float64Array;
  /** Epoch ms, NaN when unknown. */
  mtime: Float64Array;
  first: Float64Array;
  last: Float64Array;
  orders: Map<SortKey, { order: Int32Array; known: number }>;
}

function distinct(values: string[]): { list: string[]; of: Int32Array; rank: Int32Array } {
  const map = new Map<string, number>();
  const of = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    let k = map.get(values[i]);
    if (k === undefined) map.set(values[i], (k = map.size));
    of[i] = k;
  }
  const list = [...map.keys()];
  const sorted = list.map((_, i) => i).sort((a, b) => (list[a] < list[b] ? -1 : list[a] > list[b] ? 1 : 0));
  const rank = new Int32Array(list.length);
  sorted.forEach((k, r) => (rank[k] = r));
  return { list, of, rank };
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/** One index per report: a view that mounts again (or a second view) reuses it, with its sort orders. */
const cache = new WeakMap<StoreReport, Built>();

export function buildIndex(report: StoreReport | null | undefined): Built {
  if (!report) return build(null);
  let ix = cache.get(report);
  if (!ix) cache.set(report, (ix = build(report)));
  return ix;
}

/** Times are parsed the first time a sort or filter needs them (the table itself shows the ISO text). */
function times(ix: Built): { mtime: Float64Array; first: Float64Array; last: Float64Array } {
  if (!ix.timesParsed) {
    for (let i = 0; i < ix.rows.length; i++) {
      const c = ix.rows[i].chunk;
      ix.mtime[i] = ms(c.mtime);
      ix.first[i] = ms(c.firstRecordTime);
      ix.last[i] = ms(c.lastRecordTime);
    }
    ix.timesParsed = true;
  }
  return ix;
}

/** Compute the sort orders not asked for yet, one per idle slot, so a click on a column header finds its order ready. */
export function precomputeOrders(ix: Built, schedule: (run: () => void) => void = (run) => setTimeout(run, 0)): void {
  const keys: Exclude<SortKey, 'none'>[] = ['size', 'age', 'records', 'tag', 'status', 'stream', 'file'];
  const next = () => {
    if (!ix.timesParsed) {
      times(ix); // the record-time filter and the age sort need them
      schedule(next);
      return;
    }
    const key = keys.find((k) => !ix.orders.has(k));
    if (!key) return;
    sortOrder(ix, key);
    schedule(next);
  };
  schedule(next);
}

function build(report: StoreReport | null): ChunkIndex & { ranks: Record<'stream' | 'tag' | 'status', Int32Array>; timesParsed: boolean } {
  const rows: ChunkRow[] = [];
  for (const root of report?.roots ?? [])
    for (const stream of root.streams)
      for (const chunk of stream.chunks) rows.push({ id: `${root.path}::${chunk.path}`, rootPath: root.path, bucket: root.bucket, chunk });
  const n = rows.length;
  const st = distinct(rows.map((r) => r.chunk.stream));
  const tg = distinct(rows.map((r) => r.chunk.tag ?? ''));
  const ss = distinct(rows.map((r) => r.chunk.status));
  const size = new Float64Array(n);
  const records = new Float64Array(n);
  const mtime = new Float64Array(n);
  const first = new Float64Array(n);
  const last = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = rows[i].chunk;
    size[i] = c.fileSize;
    records[i] = c.records ?? NaN;
  }
  return {
    rows,
    streams: st.list,
    tags: tg.list,
    statuses: ss.list as ChunkStatus[],
    streamOf: st.of,
    tagOf: tg.of,
    statusOf: ss.of,
    size,
    records,
    mtime,
    first,
    last,
    orders: new Map(),
    ranks: { stream: st.rank, tag: tg.rank, status: ss.rank },
    timesParsed: n === 0,
  };
}

type Built = ReturnType<typeof build>;

/** Ascending order of a column (unknown values last, `known` says how many are known); cached. */
export function sortOrder(ix: Built, key: Exclude<SortKey, 'none'>): { order: Int32Array; known: number } {
  const cached = ix.orders.get(key);
  if (cached) return cached;
  const n = ix.rows.length;
  const order = new Int32Array(n);
  let result: { order: Int32Array; known: number };
  if (key === 'size' || key === 'records' || key === 'age') {
    const v = key === 'size' ? ix.size : key === 'records' ? ix.records : times(ix).mtime;
    let k = 0;
    let u = n - 1;
    for (let i = 0; i < n; i++) if (Number.isNaN(v[i])) order[u--] = i;
    for (let i = 0; i < n; i++) if (!Number.isNaN(v[i])) order[k++] = i;
    order.subarray(0, k).sort((a, b) => v[a] - v[b] || a - b);
    order.subarray(k).reverse();
    result = { order, known: k };
  } else if (key === 'file') {
    // rank the names with the engine's native string sort (code-unit order), then sort numbers
    const names = ix.rows.map((r) => r.chunk.name);
    const sorted = [...new Set(names)].sort();
    const rankOf = new Map(sorted.map((name, r) => [name, r] as const));
    const rank = Int32Array.from(names, (name) => rankOf.get(name)!);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => rank[a] - rank[b] || a - b);
    result = { order, known: n };
  } else {
    const rank = ix.ranks[key];
    const of = key === 'stream' ? ix.streamOf : key === 'tag' ? ix.tagOf : ix.statusOf;
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => rank[of[a]] - rank[of[b]] || a - b);
    result = { order, known: n };
  }
  ix.orders.set(key, result);
  return result;
}

export interface QueryResult {
  /** Row indices in display order. */
  ids: Int32Array;
  /** Matching rows per status index / tag index (of `ix.statuses` / `ix.tags`). */
  statusCounts: Int32Array;
  tagCounts: Int32Array;
}

export function query(ix: Built, filter: ChunkFilter, sortKey: SortKey, sortDir: SortDir): QueryResult {
  const n = ix.rows.length;
  // one mask, narrowed by each active filter in its own tight loop over the typed columns
  const ok = new Uint8Array(n).fill(1);
  if (filter.stream) {
    const want = ix.streams.indexOf(filter.stream);
    const of = ix.streamOf;
    for (let i = 0; i < n; i++) if (of[i] !== want) ok[i] = 0;
  }
  const needle = filter.tag.trim().toLowerCase();
  if (needle) {
    const tagOk = Uint8Array.from(ix.tags, (t) => (t.toLowerCase().includes(needle) ? 1 : 0));
    const of = ix.tagOf;
    for (let i = 0; i < n; i++) if (!tagOk[of[i]]) ok[i] = 0;
  }
  if (filter.status !== 'all') {
    const damaged = new Set<string>(DAMAGED_CHUNK_STATUSES);
    const statusOk = Uint8Array.from(ix.statuses, (s) => ((filter.status === 'damaged' ? damaged.has(s) : s === filter.status) ? 1 : 0));
    const of = ix.statusOf;
    for (let i = 0; i < n; i++) if (!statusOk[of[i]]) ok[i] = 0;
  }
  if (filter.paths) {
    const wanted = new Set(filter.paths.chunkPaths);
    const root = filter.paths.rootPath;
    for (let i = 0; i < n; i++) if (ok[i] && !(wanted.has(ix.rows[i].chunk.path) && (root === null || ix.rows[i].rootPath === root))) ok[i] = 0;
  }
  const from = filter.from.trim() ? Date.parse(filter.from.trim()) : NaN;
  const to = filter.to.trim() ? Date.parse(filter.to.trim()) : NaN;
  if (!Number.isNaN(from) || !Number.isNaN(to)) {
    // a chunk matches when its records overlap [from, to]; unknown record times never match
    const { first, last } = times(ix);
    const lo = Number.isNaN(from) ? -Infinity : from;
    const hi = Number.isNaN(to) ? Infinity : to;
    for (let i = 0; i < n; i++) if (!(last[i] >= lo && first[i] <= hi)) ok[i] = 0;
  }
  const ids = new Int32Array(n);
  const statusCounts = new Int32Array(ix.statuses.length);
  const tagCounts = new Int32Array(ix.tags.length);
  const so = ix.statusOf;
  const to2 = ix.tagOf;
  let m = 0;
  if (sortKey === 'none') {
    for (let i = 0; i < n; i++) if (ok[i]) ids[m++] = i;
  } else {
    const { order, known } = sortOrder(ix, sortKey);
    if (sortDir === 'asc') {
      for (let j = 0; j < n; j++) if (ok[order[j]]) ids[m++] = order[j];
    } else {
      for (let j = known - 1; j >= 0; j--) if (ok[order[j]]) ids[m++] = order[j];
      for (let j = known; j < n; j++) if (ok[order[j]]) ids[m++] = order[j]; // unknown values last either way
    }
  }
  for (let k = 0; k < m; k++) {
    statusCounts[so[ids[k]]]++;
    tagCounts[to2[ids[k]]]++;
  }
  return { ids: ids.subarray(0, m), statusCounts, tagCounts };
}

export type { Built as BuiltChunkIndex };
