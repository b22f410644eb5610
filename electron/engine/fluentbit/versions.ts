/**
 * What each Fluent Bit version does, as measured with the real binaries (docs/fluent-bit-versions.md;
 * every fact names its section there). The ONE place findings read version behaviour from: a
 * version given by the operator, read from a binary, or inferred from the store becomes the list of
 * measured versions whose facts apply; when that list holds versions that disagree, findings say
 * what differs instead of claiming one behaviour.
 */
import type { FluentBitVersionGiven, FluentBitVersionInfo, StoreReport } from '../../../shared/model';
import { flatten, streamFacts } from '../store/stream-facts';

export interface VersionFacts {
  /** The measured version. */
  version: '1.9.10' | '3.2.10' | '4.2.8' | '5.0.9' | '5.1.1';
  /** chunkio of that build (§7, start-up `[storage]` line). */
  chunkio: string;
  /** §1: writes 0 in the content-length field; a graceful stop cuts the file to its exact size. */
  lengthFieldZero: boolean;
  /** §2: after a SIGKILL the page padding stays and the next start uploads it (NUL bytes in objects). */
  uploadsNulPadding: boolean;
  /** §3: has `quarantine/` (a given-up chunk goes there and is never sent again). */
  quarantine: boolean;
  /** §4, `retry_limit 1`: tries before giving up a chunk, and how the limit is read. */
  tries: number;
  retryRule: 'ignored' | 'at-limit' | 'above-limit';
  /** §4.1: a graceful stop deletes a given-up chunk left alone in its stream (data loss). */
  dropsGivenUpAtStop: boolean;
  /** §8: uploads a 5.x `quarantine/` as an old stream (true: measured; null: not measured; false: has quarantine). */
  uploadsQuarantineDir: boolean | null;
  /** Shared README (../shared/fluent-bit/README.md): SIGSEGV at the first upload to `http://` without `tls Off`. */
  crashesOnHttpWithoutTlsOff: boolean;
  /** §10: keep-alive against RGW made it send records twice (without `net.keepalive Off`). */
  keepaliveDuplicates: boolean;
}

/** Measured versions, oldest first. */
export const MEASURED: readonly VersionFacts[] = [
  {
    version: '1.9.10',
    chunkio: '1.3.0',
    lengthFieldZero: true,
    uploadsNulPadding: true,
    quarantine: false,
    tries: 5,
    retryRule: 'ignored',
    dropsGivenUpAtStop: true,
    uploadsQuarantineDir: null,
    crashesOnHttpWithoutTlsOff: true,
    keepaliveDuplicates: true,
  },
  {
    version: '3.2.10',
    chunkio: '1.5.2',
    lengthFieldZero: false,
    uploadsNulPadding: false,
    quarantine: false,
    tries: 5,
    retryRule: 'ignored',
    dropsGivenUpAtStop: true,
    uploadsQuarantineDir: null,
    crashesOnHttpWithoutTlsOff: false,
    keepaliveDuplicates: false,
  },
  {
    version: '4.2.8',
    chunkio: '1.5.4',
    lengthFieldZero: false,
    uploadsNulPadding: false,
    quarantine: false,
    tries: 1,
    retryRule: 'at-limit',
    dropsGivenUpAtStop: true,
    uploadsQuarantineDir: true,
    crashesOnHttpWithoutTlsOff: false,
    keepaliveDuplicates: false,
  },
  {
    version: '5.0.9',
    chunkio: '1.5.4',
    lengthFieldZero: false,
    uploadsNulPadding: false,
    quarantine: true,
    tries: 2,
    retryRule: 'above-limit',
    dropsGivenUpAtStop: false,
    uploadsQuarantineDir: false,
    crashesOnHttpWithoutTlsOff: false,
    keepaliveDuplicates: false,
  },
  {
    version: '5.1.1',
    chunkio: '1.5.4',
    lengthFieldZero: false,
    uploadsNulPadding: false,
    quarantine: true,
    tries: 2,
    retryRule: 'above-limit',
    dropsGivenUpAtStop: false,
    uploadsQuarantineDir: false,
    crashesOnHttpWithoutTlsOff: false,
    keepaliveDuplicates: false,
  },
];

export const VERSIONS_DOC = 'docs/fluent-bit-versions.md';

type Triple = [number, number, number];

/** `1.9.10`, `v5.0.9`, `4.2` → numbers; null when it is not a version. */
export function parseVersion(text: string): Triple | null {
  const m = /^v?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/** The version `fluent-bit --version` prints: `Fluent Bit v5.0.9` (first line). */
export function parseVersionOutput(out: string): string | null {
  const m = /^Fluent Bit v(\d{1,3}\.\d{1,3}\.\d{1,4})\b/m.exec(out);
  return m ? m[1] : null;
}

const cmp = (a: Triple, b: Triple) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const triple = (f: VersionFacts) => parseVersion(f.version)!;

/**
 * The measured versions whose facts apply to `version`: the measured one of the same minor, else
 * the two measured neighbours (findings then say where they differ); outside the measured range the
 * nearest one, with a note that its facts are assumed.
 */
export function factsFor(version: string): { facts: VersionFacts[]; note: string | null } {
  const v = parseVersion(version);
  if (!v) return { facts: [...MEASURED], note: `${version} is not a version number` };
  const same = MEASURED.find((f) => triple(f)[0] === v[0] && triple(f)[1] === v[1]);
  if (same) return { facts: [same], note: same.version === `${v[0]}.${v[1]}.${v[2]}` ? null : `the facts of ${same.version} (same minor version, measured)` };
  const lower = [...MEASURED].reverse().find((f) => cmp(triple(f), v) < 0);
  const upper = MEASURED.find((f) => cmp(triple(f), v) > 0);
  if (!lower) return { facts: [upper!], note: `older than every measured version: the facts of ${upper!.version} are assumed` };
  if (!upper) return { facts: [lower], note: `newer than every measured version: the facts of ${lower.version} are assumed` };
  return { facts: [lower, upper], note: `not measured: between ${lower.version} and ${upper.version}, so the findings say where those two differ` };
}

// per stream, cached by the stream object (store/stream-facts.ts)
const dataStreams = (s: StoreReport) => s.roots.flatMap((r) => r.streams.filter((x) => x.kind !== 'sequence'));
const isLegacy = (s: StoreReport) => flatten(dataStreams(s).map((x) => streamFacts(x).legacy));
const withLength = (s: StoreReport) => flatten(dataStreams(s).map((x) => streamFacts(x).withLength));

/** What the store itself says about the version that wrote it (§1, §3). */
export function inferFromStore(report: StoreReport): { facts: VersionFacts[]; evidence: string[]; range: string | null; because: string[] } {
  let facts = [...MEASURED];
  const evidence: string[] = [];
  const ranges: string[] = [];
  const because: string[] = [];
  const q = report.roots.filter((r) => r.streams.some((s) => s.kind === 'quarantine'));
  if (q.length) {
    facts = facts.filter((f) => f.quarantine);
    ranges.push('5.x');
    because.push('quarantine/ exists');
    evidence.push(`${q[0].bucket}/quarantine/ exists: only 5.0.9 and 5.1.1 create it (${VERSIONS_DOC} §3)`);
  }
  const legacy = isLegacy(report);
  if (legacy.length) {
    const exact = legacy.filter((c) => c.fileSize % 4096 !== 0);
    facts = facts.filter((f) => f.lengthFieldZero);
    ranges.push('1.x (or 2.x, not measured)');
    because.push('chunks with content-length field 0');
    evidence.push(
      `${legacy.length} chunk${legacy.length === 1 ? '' : 's'} with content-length field 0 (e.g. ${legacy[0].path}, ${legacy[0].fileSize} bytes${exact.length ? `; ${exact.length} cut to their exact size` : ', page-sized'}): written by chunkio before 1.5 — 1.9.10 writes them, 3.2.10 and later write the length (${VERSIONS_DOC} §1)`,
    );
  }
  const set = withLength(report);
  if (set.length) {
    facts = facts.filter((f) => !f.lengthFieldZero);
    ranges.push('3.x or later');
    because.push('chunks with the content length in the header');
    evidence.push(
      `${set.length} chunk${set.length === 1 ? '' : 's'} with the content length in the header (e.g. ${set[0].path}: ${set[0].contentLengthField} in a ${set[0].fileSize}-byte file): chunkio 1.5 or later — 3.2.10 and later (${VERSIONS_DOC} §1)`,
    );
  }
  if (!facts.length) {
    evidence.push(`the store holds files of several Fluent Bit versions (${ranges.join(' and ')}): the version that runs it next is not known from the store`);
    return { facts: [...MEASURED], evidence, range: null, because };
  }
  return { facts, evidence, range: ranges.length ? rangeText(facts) : null, because };
}

function rangeText(facts: VersionFacts[]): string {
  if (facts.length === MEASURED.length) return 'any';
  if (facts.every((f) => f.quarantine)) return '5.x';
  if (facts.every((f) => f.lengthFieldZero)) return '1.x (or 2.x)';
  if (facts.every((f) => !f.lengthFieldZero)) return '3.x or later';
  return facts.map((f) => f.version).join(', ');
}

/** The version a diagnosis applies: the one given (or read from a binary), else what the store shows, else unknown. */
export function resolveVersion(given: FluentBitVersionGiven | null, report: StoreReport): { info: FluentBitVersionInfo; facts: VersionFacts[] } {
  if (given) {
    const { facts, note } = factsFor(given.version);
    const how = given.source === 'given' ? 'given' : 'read from the Fluent Bit binary';
    return {
      facts,
      info: {
        source: given.source,
        version: given.version,
        assumes: facts.map((f) => f.version),
        text: `Fluent Bit ${given.version}, ${how}${note ? `; ${note}` : ''}`,
        evidence: [...given.evidence],
      },
    };
  }
  const inf = inferFromStore(report);
  if (inf.range && inf.facts.length < MEASURED.length) {
    return {
      facts: inf.facts,
      info: {
        source: 'inferred',
        version: null,
        assumes: inf.facts.map((f) => f.version),
        text: `Fluent Bit ${inf.range}, inferred from the store (${inf.because.join(', ')})`,
        evidence: inf.evidence,
      },
    };
  }
  return {
    facts: [...MEASURED],
    info: {
      source: 'unknown',
      version: null,
      assumes: MEASURED.map((f) => f.version),
      text: 'Fluent Bit version unknown: findings say where the measured versions (1.9.10, 3.2.10, 4.2.8, 5.0.9, 5.1.1) differ',
      evidence: inf.evidence.length ? inf.evidence : ['the store shows no file that tells the version (no chunk, no quarantine/)'],
    },
  };
}

/** `1.9.10`, `1.9.10 and 3.2.10`, `5.0.9, 5.1.1 and 4.2.8`. */
export function versionList(facts: readonly VersionFacts[]): string {
  const v = facts.map((f) => f.version);
  return v.length <= 1 ? (v[0] ?? '') : `${v.slice(0, -1).join(', ')} and ${v[v.length - 1]}`;
}

/**
 * One fact over the versions that apply: a single sentence when they agree, else one clause per
 * group of versions that agree ("1.9.10 and 3.2.10: …; 4.2.8: …").
 */
export function describeFact<T>(facts: readonly VersionFacts[], pick: (f: VersionFacts) => T, say: (value: T, versions: string) => string): string {
  const groups: { value: T; facts: VersionFacts[] }[] = [];
  for (const f of facts) {
    const v = pick(f);
    const g = groups.find((x) => JSON.stringify(x.value) === JSON.stringify(v));
    if (g) g.facts.push(f);
    else groups.push({ value: v, facts: [f] });
  }
  return groups.map((g) => say(g.value, versionList(g.facts))).join('; ');
}

/** Do all versions that apply agree on this fact? Then its value, else undefined. */
export function agreed<T>(facts: readonly VersionFacts[], pick: (f: VersionFacts) => T): T | undefined {
  const values = facts.map(pick);
  return values.every((v) => v === values[0]) ? values[0] : undefined;
}

/**
 * §4: tries before a chunk is given up, for the config's `retry_limit` (raw text; undefined: not
 * set, Fluent Bit's default 1). Measured with `retry_limit 1`; other limits are read by the rule.
 */
export function triesText(facts: readonly VersionFacts[], retryLimit: string | undefined): string {
  const raw = retryLimit?.trim();
  const n = raw === undefined ? 1 : /^\d+$/.test(raw) ? Number(raw) : raw.toLowerCase() === 'no_retries' ? 0 : null;
  const head = `retry_limit ${raw === undefined ? 'not set (Fluent Bit default 1)' : raw}`;
  const body = describeFact(
    facts,
    (f) => f.retryRule,
    (rule, v) => {
      if (rule === 'ignored') return `${v} ignore it: 5 tries (measured with retry_limit 1)`;
      if (n === null) return `${v} ${rule === 'at-limit' ? 'give up at the limit' : 'give up above the limit'} (not measured with ${raw})`;
      const tries = rule === 'at-limit' ? Math.max(1, n) : n + 1;
      return `${v} ${rule === 'at-limit' ? 'give up at the limit' : 'give up above the limit'}: ${tries} ${tries === 1 ? 'try' : 'tries'}${n === 1 ? ' (measured)' : ' (read from the rule measured with retry_limit 1)'}`;
    },
  );
  return `${head}: ${body} (${VERSIONS_DOC} §4)`;
}
