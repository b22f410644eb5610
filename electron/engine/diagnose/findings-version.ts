/**
 * Findings that depend on what the Fluent Bit version does (facts: fluentbit/versions.ts): NUL
 * padding uploaded after a crash, quarantine/ (kept by 5.x, uploaded by older versions after a
 * downgrade), given-up chunks lost at a graceful stop before 5.x, and the 1.x config traps
 * (`http://` without `tls Off`, keep-alive duplicates). With several possible versions each finding
 * says where they differ.
 */
import type { ChunkInfo, Finding, FluentBitOutput, FluentBitVersionInfo, RootReport } from '../../../shared/model';
import { parseBool } from '../fluentbit/s3-settings';
import { agreed, describeFact, triesText, versionList, VERSIONS_DOC, type VersionFacts } from '../fluentbit/versions';
import { next } from './next-steps';
import type { Target } from './targets';
import { capped, plural, sizeText } from './text';

/** The version a diagnosis applies: what the operator reads, and the facts findings use. */
export interface VersionView {
  info: FluentBitVersionInfo;
  facts: VersionFacts[];
}

const n = (v: number) => v.toLocaleString('en-US');
const sum = (cs: ChunkInfo[], f: (c: ChunkInfo) => number | null | undefined) => cs.reduce((a, c) => a + (f(c) ?? 0), 0);
/** "Fluent Bit 1.9.10" for a known version, "Fluent Bit 5.x" for an inferred one. */
const who = (v: VersionView) => (v.info.version ? `Fluent Bit ${v.info.version}` : `Fluent Bit ${versionList(v.facts)}`);

/** §2: legacy-length data chunks with a NUL tail are uploaded with it. */
export function nulPaddingFinding(root: RootReport, v: VersionView, outputId: number | null): Finding | null {
  const cs = root.streams
    .filter((s) => s.kind === 'data' || s.kind === 'quarantine')
    .flatMap((s) => s.chunks.filter((c) => c.status === 'legacy-length' && (c.nulTail ?? 0) > 0));
  if (!cs.length) return null;
  const nul = sum(cs, (c) => c.nulTail);
  const writers = v.facts.every((f) => f.lengthFieldZero)
    ? `${who(v)} wrote them with content-length 0`
    : `a Fluent Bit before 3.x (chunkio < 1.5, e.g. 1.9.10) wrote them with content-length 0${v.facts.length === 1 ? `; ${who(v)} reads such a file by the same legacy length rule (docs/fluent-bit-store-format.md#legacy-length; not measured with ${v.facts[0].version})` : ''}`;
  return {
    code: 'CHUNK_NUL_PADDING',
    severity: 'warning',
    summary: `${plural(cs.length, 'chunk')} will be uploaded with ${n(nul)} NUL bytes at the end: the zero padding left by a crash, which Fluent Bit reads as content.`,
    evidence: [
      `${writers}; after a SIGKILL the file keeps its page of zero padding and the length is read from the file size`,
      ...capped(
        cs.map(
          (c) =>
            `${c.path}: ${c.fileSize} bytes, content-length field 0, ${c.contentLength} bytes read as content of which the last ${n(c.nulTail!)} are NUL (${c.records ?? '?'} records, tag ${c.tag ?? '?'})`,
        ),
      ),
      `measured: the next start of 1.9.10 uploaded such chunks with their padding (objects with 1,885 to 23,836 NUL bytes; ${VERSIONS_DOC} §2); the records themselves are intact`,
    ],
    action:
      'Replay these chunks before Fluent Bit starts (replay sends the records without the zero padding), or expect NUL bytes at the end of these objects: a JSON-lines reader that does not skip them sees a broken last line.',
    next: outputId !== null ? [next.replay(outputId)] : [],
    outputId,
    data: { chunks: cs.map((c) => c.path), nulBytes: nul },
  };
}

/**
 * §3, §8: quarantine/ — kept and never sent again by 5.x; a version before 5 treats it as an old
 * stream and uploads it (the downgrade). Replaces QUARANTINED_DATA when the version is known to be < 5.
 */
export function quarantineFinding(root: RootReport, v: VersionView, outputId: number | null): Finding | null {
  const qs = root.streams.filter((s) => s.kind === 'quarantine');
  if (!qs.length) return null;
  const q = qs.flatMap((s) => s.chunks);
  const records = sum(q, (c) => c.records);
  const size = sum(q, (c) => c.contentLength);
  const list = capped(q.map((c) => `${c.path}: tag ${c.tag ?? '?'}, ${c.records ?? '?'} records${c.mtime ? `, ${c.mtime}` : ''}`));
  const told = v.info.source === 'given' || v.info.source === 'binary';
  const downgrade = agreed(v.facts, (f) => f.quarantine) === false;
  if (told && downgrade) {
    const measured = v.facts.filter((f) => f.uploadsQuarantineDir).length === v.facts.length;
    return {
      code: 'QUARANTINE_DOWNGRADE',
      severity: q.length ? 'warning' : 'info',
      summary: q.length
        ? `quarantine/ holds ${plural(q.length, 'chunk')} (${records} records, ${sizeText(size)} of record data) that ${who(v)} uploads at its next start: it has no quarantine and sends the folder as an old stream (a 5.x store run by an older version).`
        : `quarantine/ exists (empty): a Fluent Bit 5.x ran on this store; ${who(v)} has no quarantine, so from now on a given-up chunk stays in its stream (and is lost at a graceful stop).`,
      evidence: [
        ...list,
        `only 5.0.9 and 5.1.1 create quarantine/ (${VERSIONS_DOC} §3)`,
        `measured: 4.2.8 started on stores of 5.0.9 and 5.1.1 uploaded every quarantined record (104 and 98) exactly once and removed quarantine/ (${VERSIONS_DOC} §8)${measured ? '' : `; not measured with ${versionList(v.facts.filter((f) => !f.uploadsQuarantineDir))}`}`,
      ],
      action: q.length
        ? `If these records were set aside on purpose, move quarantine/ out of the store before ${who(v)} starts; otherwise replay them create-only now, so the $INDEX they take is known.`
        : 'Nothing to send now; replay given-up chunks before a graceful stop, since this version deletes them with their stream.',
      next: q.length && outputId !== null ? [next.replay(outputId)] : [],
      outputId,
      data: { chunks: q.map((c) => c.path) },
    };
  }
  if (!q.length) return null;
  const fate = describeFact(
    v.facts,
    (f) => f.quarantine,
    (kept, vs) => (kept ? `${vs} never upload them again (measured)` : `${vs} treat quarantine/ as an old stream and upload it (measured with 4.2.8)`),
  );
  const only5 = agreed(v.facts, (f) => f.quarantine) === true;
  return {
    code: 'QUARANTINED_DATA',
    severity: 'warning',
    summary: `${plural(q.length, 'chunk')} (${records} records, ${sizeText(size)} of record data) sit in quarantine/: ${only5 ? 'Fluent Bit never uploads them again' : 'what Fluent Bit does with them depends on its version'}.`,
    evidence: [...list, `${fate} (${VERSIONS_DOC} §3, §8)`],
    action: 'Replay them to the bucket create-only. A downgrade to a version before 5 would upload them as old buffers (measured with 4.2.8).',
    next: outputId !== null ? [next.replay(outputId)] : [],
    outputId,
    data: { chunks: q.map((c) => c.path) },
  };
}

/** §4, §4.1: what the next start does with the backlog when uploads fail, as evidence lines for BUFFERED_BACKLOG. */
export function backlogVersionLines(v: VersionView, retryLimit: string | undefined): string[] {
  return [
    triesText(v.facts, retryLimit),
    `${describeFact(
      v.facts,
      (f) => f.quarantine,
      (q, vs) =>
        q
          ? `${vs}: a given-up chunk moves to quarantine/ and is never sent again`
          : `${vs}: a given-up chunk stays in its stream, is sent again at every start, and is deleted with its stream at a graceful stop when no other chunk keeps it`,
    )} (${VERSIONS_DOC} §3, §4.1)`,
  ];
}

/** §4.1: before 5.x a graceful stop deletes given-up chunks with their stream: a data-loss warning on a backlog. */
export function stopLossFinding(root: RootReport, v: VersionView, outputId: number | null, retryLimit: string | undefined): Finding | null {
  if (agreed(v.facts, (f) => f.dropsGivenUpAtStop) !== true) return null;
  const data = root.streams.filter((s) => s.kind === 'data' && s.chunks.some((c) => (c.contentLength ?? 0) > 0 && c.status !== 'unreadable'));
  if (!data.length) return null;
  const chunks = data.flatMap((s) => s.chunks.filter((c) => (c.contentLength ?? 0) > 0));
  return {
    code: 'GIVEN_UP_LOST_AT_STOP',
    severity: 'warning',
    summary: `${plural(chunks.length, 'buffered chunk')} (${sum(chunks, (c) => c.records)} records) are lost if ${who(v)} gives them up and is then stopped gracefully: before 5.x a given-up chunk alone in its stream is deleted with it.`,
    evidence: [
      ...capped(data.map((s) => `${s.name}: ${plural(s.chunks.length, 'chunk')}${s.chunks.length === 1 ? ' (alone in its stream)' : ''}`)),
      triesText(v.facts, retryLimit),
      `measured: with S3 unreachable and the chunk given up, SIGTERM made 1.9.10, 3.2.10 and 4.2.8 exit 0 with an empty store — its 10 records gone; 5.0.9 and 5.1.1 kept it in quarantine/ (${VERSIONS_DOC} §4.1)`,
    ],
    action: 'Replay the backlog create-only before the next start, or make sure the bucket is reachable before stopping Fluent Bit gracefully.',
    next: outputId !== null ? [next.replay(outputId)] : [],
    outputId,
    data: { chunks: chunks.map((c) => c.path) },
  };
}

/** Shared README + §10: 1.x traps in the output's config. */
export function configVersionFindings(target: Target, output: FluentBitOutput | null, v: VersionView): Finding[] {
  const out: Finding[] = [];
  const endpoint = target.s3?.endpoint ?? null;
  const props = output?.properties ?? {};
  const where = output ? ` (${output.source.file}:${output.source.line})` : '';
  const crash = v.facts.filter((f) => f.crashesOnHttpWithoutTlsOff);
  if (endpoint && /^http:\/\//i.test(endpoint) && parseBool(props['tls'] ?? '') !== false && crash.length) {
    const all = crash.length === v.facts.length;
    out.push({
      code: 'CONFIG_HTTP_WITHOUT_TLS_OFF',
      severity: all ? 'error' : 'warning',
      summary: all
        ? `${target.displayName}: ${who(v)} crashes (SIGSEGV, exit 134) at its first upload to the http:// endpoint ${endpoint}: the output has no \`tls Off\`.`
        : `${target.displayName}: the http:// endpoint ${endpoint} has no \`tls Off\`: Fluent Bit ${versionList(crash)} crashes (SIGSEGV) at its first upload, ${versionList(v.facts.filter((f) => !f.crashesOnHttpWithoutTlsOff))} work.`,
      evidence: [
        `${target.displayName}${where}: endpoint ${endpoint}, tls ${props['tls'] ?? 'not set'}`,
        'measured: 1.9.10 calls flb_tls_session_create() with a NULL TLS context for an http:// upstream and dies with SIGSEGV (exit 134) at its first upload; 3.2.10 and later check it and do not crash (../shared/fluent-bit/README.md)',
        ...(crash.some((f) => f.keepaliveDuplicates) && !all ? [keepaliveLine] : []),
      ],
      action: 'Add `tls Off` to this [OUTPUT] section (harmless on later versions), then restart Fluent Bit.',
      next: [],
      outputId: target.id,
    });
  }
  if (v.facts.every((f) => f.keepaliveDuplicates) && parseBool(props['net.keepalive'] ?? '') !== false) {
    out.push({
      code: 'CONFIG_KEEPALIVE_DUPLICATES',
      severity: 'warning',
      summary: `${target.displayName}: ${who(v)} with keep-alive connections can upload records twice: it takes a PUT the server stored for failed, rolls $INDEX back and sends the records again.`,
      evidence: [`${target.displayName}${where}: net.keepalive ${props['net.keepalive'] ?? 'not set (on)'}`, keepaliveLine],
      action: 'Set `net.keepalive Off` in this [OUTPUT] section. Records already in the bucket twice were sent twice by Fluent Bit.',
      next: [],
      outputId: target.id,
    });
  }
  return out;
}

const keepaliveLine = `measured: 1.9.10 reused idle connections RGW had closed ("broken connection", "PutObject request failed" for a PUT that was stored), rolled $INDEX back and sent 20 records again in the next object; no other version did (${VERSIONS_DOC} §10)`;
