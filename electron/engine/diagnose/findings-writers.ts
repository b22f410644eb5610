/**
 * COLLISION_ACROSS_NODES from a listing: keys of one output that show several writers, each with
 * its own `$INDEX` counter, for a key format with no node-unique part (shared/keyformat/node-unique.ts).
 *
 * Fluent Bit has one counter per output (docs/fluent-bit-store-format.md §5.3): one writer's uploads,
 * in time order, are increasing runs; a reset starts a new run and the old run never continues. The
 * rule (conservative): split the uploads in time order into increasing chains (a point extends the
 * chain with the highest last index below it, one with the same tag first); two chains are two
 * writers only when they render the SAME `$INDEX` values (at least MIN_SHARED), alternate in time at
 * least MIN_SWITCHES times AND each uploads at least MIN_ACTIVE times while both are seen. One writer
 * with a reset: the runs do not alternate. One writer whose multipart uploads complete out of order:
 * the chains share no index. Multipart uploads created before a reset and completed after it: a
 * short burst of old indices, not a second counter that keeps going. Versions are used when listed
 * (a plain listing keeps only the last writer of an overwritten key: then nothing is claimed).
 */
import type { Finding } from '../../../shared/model';
import { keyFormatNodeUnique } from '../../../shared/keyformat/node-unique';
import { splitTag } from '../../../shared/keyformat';
import type { BucketAnalysis, ParsedKey } from './bucket';
import type { Target } from './targets';
import { capped, indexRanges } from './text';

const MIN_SHARED = 3;
const MIN_SWITCHES = 6;
/** Uploads each writer makes while both are seen: a short burst (late multipart completions after a reset) is no writer. */
const MIN_ACTIVE = 5;
/** More chains than this: too disordered to read writers from; nothing is claimed. */
const MAX_CHAINS = 32;

interface Chain {
  points: ParsedKey[];
  last: number;
  sig: string;
  used: number;
}

const sigOf = (p: ParsedKey) => JSON.stringify([p.parts.tag ?? null, p.parts.tagParts ?? null]);

export interface Writers {
  /** The chains read as separate writers, each oldest first. */
  writers: ParsedKey[][];
  /** `$INDEX` values more than one writer rendered. */
  shared: number[];
  /** The key part that tells the writers apart (`$TAG`, `$TAG[1]`) and each writer's value, when one does. */
  namedBy: { part: string; names: string[] } | null;
}

export function detectWriters(uploads: ParsedKey[], tagDelimiters = '.'): Writers | null {
  const pts = uploads
    .filter((p) => p.index !== null && p.time !== null)
    .sort((a, b) => a.time!.localeCompare(b.time!) || a.index! - b.index! || a.key.localeCompare(b.key));
  const chains: Chain[] = [];
  const label: number[] = [];
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i];
    const sig = sigOf(p);
    let best = -1;
    for (let c = 0; c < chains.length; c++) {
      const ch = chains[c];
      if (ch.last >= p.index!) continue;
      if (best < 0) {
        best = c;
        continue;
      }
      const b = chains[best];
      const key = (x: Chain) => [x.sig === sig ? 1 : 0, x.last, x.used];
      const [s1, l1, u1] = key(ch);
      const [s2, l2, u2] = key(b);
      if (s1 > s2 || (s1 === s2 && (l1 > l2 || (l1 === l2 && u1 > u2)))) best = c;
    }
    if (best < 0) {
      if (chains.length >= MAX_CHAINS) return null;
      chains.push({ points: [], last: -1, sig, used: i });
      best = chains.length - 1;
    }
    const ch = chains[best];
    ch.points.push(p);
    ch.last = p.index!;
    ch.used = i;
    label.push(best);
  }
  // switches between x and y: changes in the label sequence restricted to {x, y}, in one pass
  const switches = chains.map(() => new Array<number>(chains.length).fill(0));
  const lastSeen = new Array<number>(chains.length).fill(-1);
  label.forEach((l, i) => {
    // the element before this one in the {l, y} sequence was y
    for (let y = 0; y < chains.length; y++) if (y !== l && lastSeen[y] > lastSeen[l]) switches[Math.min(l, y)][Math.max(l, y)]++;
    lastSeen[l] = i;
  });
  const indexSets = chains.map((c) => new Set(c.points.map((p) => p.index!)));
  const linked = new Set<number>();
  const shared = new Set<number>();
  for (let x = 0; x < chains.length; x++) {
    for (let y = x + 1; y < chains.length; y++) {
      if (switches[x][y] < MIN_SWITCHES) continue;
      const from = [chains[x], chains[y]].map((c) => c.points[0].time!).reduce((a, b) => (a > b ? a : b));
      const to = [chains[x], chains[y]].map((c) => c.points[c.points.length - 1].time!).reduce((a, b) => (a < b ? a : b));
      const active = (c: Chain) => c.points.filter((p) => p.time! >= from && p.time! <= to).length;
      if (active(chains[x]) < MIN_ACTIVE || active(chains[y]) < MIN_ACTIVE) continue;
      const [small, big] = indexSets[x].size <= indexSets[y].size ? [indexSets[x], indexSets[y]] : [indexSets[y], indexSets[x]];
      const both = [...small].filter((v) => big.has(v));
      if (both.length < MIN_SHARED) continue;
      linked.add(x).add(y);
      for (const v of both) shared.add(v);
    }
  }
  if (linked.size < 2) return null;
  const writers = [...linked].sort((a, b) => a - b).map((c) => chains[c].points);
  return { writers, shared: [...shared].sort((a, b) => a - b), namedBy: nameWriters(writers, tagDelimiters) };
}

/** A key part constant within each writer and different between writers names them; else null. */
function nameWriters(writers: ParsedKey[][], tagDelimiters: string): Writers['namedBy'] {
  const first = writers[0][0].parts;
  const tagPart = (n: number) => (p: ParsedKey) => (p.parts.tag !== undefined ? splitTag(p.parts.tag, tagDelimiters)[n] : undefined);
  const candidates: { part: string; get: (p: ParsedKey) => string | undefined }[] = [
    ...Object.keys(first.tagParts ?? {}).map((n) => ({ part: `$TAG[${n}]`, get: (p: ParsedKey) => p.parts.tagParts?.[Number(n)] })),
    // a part of the tag (the key has the whole $TAG): the one that differs, e.g. a node name
    ...(first.tag !== undefined && tagDelimiters ? splitTag(first.tag, tagDelimiters).map((_, n) => ({ part: `$TAG[${n}]`, get: tagPart(n) })) : []),
    { part: '$TAG', get: (p: ParsedKey) => p.parts.tag },
  ];
  for (const c of candidates) {
    const names = writers.map((w) => {
      const vs = new Set(w.map(c.get));
      return vs.size === 1 ? [...vs][0] : undefined;
    });
    if (names.every((n) => n !== undefined && n !== '') && new Set(names).size === names.length) return { part: c.part, names: names as string[] };
  }
  return null;
}

const when = (p: ParsedKey) => (p.time ? ` (${p.time})` : '');

export function writersFinding(target: Target, bucket: BucketAnalysis): Finding | null {
  if (!target.hasIndex || !target.keyFormat || !bucket.evidence) return null;
  const unique = keyFormatNodeUnique(target.keyFormat);
  if (unique.unique) return null;
  const found = detectWriters(bucket.versions ?? bucket.objects, target.tagDelimiters);
  if (!found) return null;
  const { writers, shared, namedBy } = found;
  const who = namedBy
    ? `${writers.length} writers, told apart by ${namedBy.part} in their keys (${namedBy.names.join(', ')})`
    : `${writers.length} writers (the keys do not say which nodes)`;
  const lines = writers.map(
    (w, i) =>
      `writer ${namedBy ? namedBy.names[i] : i + 1}: $INDEX ${w[0].index}…${w[w.length - 1].index} from ${w[0].time} to ${w[w.length - 1].time} (${w.length} uploads, e.g. ${w[0].key})`,
  );
  const examples = shared.map(
    (v) =>
      `index ${v}: ${writers
        .flatMap((w) => w.filter((p) => p.index === v))
        .map((p) => `${p.key}${when(p)}`)
        .join(', ')}`,
  );
  return {
    code: 'COLLISION_ACROSS_NODES',
    severity: 'error',
    summary: `The bucket shows keys of this output from ${who}, each with its own $INDEX counter, and the key format ${target.keyFormat} has no node-unique part ($UUID, host, node or pod name): for the same ${target.keyFormat.includes('$TAG') ? 'tag and ' : ''}$INDEX they render the same key and overwrite each other.`,
    evidence: [
      `${writers.length} increasing $INDEX runs keep uploading side by side, alternate in time and render the same values ${indexRanges(shared)}: one Fluent Bit output has one counter, and after a reset its old run never continues`,
      ...lines,
      ...capped(examples, 10),
      unique.why,
      bucket.versions
        ? ''
        : 'object versions were not listed: overwrites between the writers are not visible (a plain listing keeps only the last write of a key)',
    ].filter(Boolean),
    action:
      'Give every node a node-unique key: add $UUID, or a per-node reference such as ${HOSTNAME} (Fluent Bit expands it), to s3_key_format on every node before they upload again; then diagnose each node. Objects already overwritten survive only as versions (OBJECTS_OVERWRITTEN).',
    next: [],
    outputId: target.id,
    data: {
      writers: writers.length,
      nodes: namedBy?.names ?? null,
      namedBy: namedBy?.part ?? null,
      sharedIndices: shared,
      keys: writers.map((w) => w.map((p) => p.key).slice(0, 20)),
    },
  };
}
