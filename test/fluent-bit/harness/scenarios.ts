/**
 * The harness scenarios: what each run does and when it is stopped. Each returns the procedure
 * (for the README) and observations derived from the recorded facts.
 */
import { closedPort, nextSecond, sleep, type ConfigOptions } from '../support/lab';
import type { DummyInput } from '../support/config';
import { UPLOADED } from '../support/scenario';
import { dataChunks } from '../support/store';
import type { Recorder, StageRecord } from './recorder';

export interface ScenarioResult {
  title: string;
  purpose: string;
  procedure: string[];
  observations: Record<string, unknown>;
}

export interface ScenarioContext {
  rec: Recorder;
  /** Second binary for `downgrade-quarantine`. */
  thenBin?: { path: string; version: string };
}

const KEY = '/$TAG/%Y/%m/%d/$INDEX';
const PAD = 'abcdefghij'.repeat(350);
const big = (tag: string): DummyInput => ({ tag, rate: 1100, record: { msg: 'bulk payload record', pad: PAD } });
const MULTIPART: ConfigOptions['output'] = { usePutObject: false, totalFileSize: '50M', uploadChunkSize: '5242880', uploadTimeout: '10m', keyFormat: KEY };

const nul = (s: StageRecord) => (s.s3?.objects ?? []).filter((o) => o.nulBytes > 0).map((o) => ({ key: o.key, nulBytes: o.nulBytes, size: o.size }));
const chunkShape = (s: StageRecord) =>
  (s.store?.chunkFiles ?? []).map((c) => ({
    path: c.path.split('/').slice(2).join('/'),
    fileSize: c.fileSize,
    contentLengthField: c.contentLengthField,
    contentBytes: c.contentBytes,
    pagePadded: c.pagePadded,
    nulInContent: c.nulInContent,
  }));

async function pendingChunks(rec: Recorder, want: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (dataChunks(rec.lab.store()).filter((c) => c.contentBytes > 0).length < want) {
    if (Date.now() > deadline) throw new Error(`fewer than ${want} pending chunks after 20 s`);
    await sleep(100);
  }
}

export async function indexReset({ rec }: ScenarioContext): Promise<ScenarioResult> {
  const conf = rec.lab.writeConfig('run1', { output: { keyFormat: KEY } });
  const obs: Record<string, unknown> = {};
  for (const label of ['run1', 'run2']) {
    await nextSecond();
    const p = rec.start(conf, label);
    await p.waitFor(UPLOADED, { count: 4, timeoutMs: 60_000 });
    obs[`${label}SeqIndexWhileRunning`] = rec.lab.store().seqIndex.map((f) => f.raw);
    await rec.stop(p, 'SIGTERM');
    const st = await rec.stage(`after-${label}`, { versions: true });
    obs[`${label}SequenceDirAfterGracefulStop`] = st.store?.sequenceDirPresent ? 'kept' : 'deleted';
    obs[`${label}StreamsAfterGracefulStop`] = st.store?.streams ?? [];
    obs[`${label}ContinuingAt`] = /Continuing at index=(\d+)/.exec(p.log())?.[1] ?? 'none (no line)';
  }
  const last = rec.stages[rec.stages.length - 1];
  const perKey = new Map<string, number>();
  for (const v of last.s3?.versions ?? []) perKey.set(v.key, (perKey.get(v.key) ?? 0) + 1);
  obs.keysOverwrittenByRun2 = [...perKey].filter(([, n]) => n > 1).map(([k]) => k);
  obs.objectsAfterRun2 = `${last.s3?.objectCount} current objects, ${last.s3?.versions?.length} versions`;
  return {
    title: '$INDEX deleted by every graceful stop, the next run overwrites',
    purpose:
      'Two runs over one store_dir, each stopped with SIGTERM. Key format `/$TAG/%Y/%m/%d/$INDEX` on a **versioned** bucket, so the keys run 2 writes again show up as extra versions in `s3api-list-object-versions-after-run2.json`.',
    procedure: [
      'run1: start; after 4 `Successfully uploaded object` lines, `SIGTERM`; wait for the exit; snapshot `after-run1` (store tar, listings incl. versions).',
      'run2 (next second, same config and store_dir): the same; snapshot `after-run2`.',
    ],
    observations: obs,
  };
}

export async function crashDuringRun({ rec }: ScenarioContext): Promise<ScenarioResult> {
  const conf = rec.lab.writeConfig('run1', { output: { keyFormat: KEY } });
  const p1 = rec.start(conf, 'run1');
  await p1.waitFor(UPLOADED, { count: 3, timeoutMs: 60_000 });
  await pendingChunks(rec, 2);
  await sleep(700);
  await rec.stop(p1, 'SIGKILL');
  const crash = await rec.stage('after-crash');
  const uploadedRun1 = p1.matches(/Successfully uploaded object (\S+)/g).map((m) => m[1]);
  await nextSecond();
  const p2 = rec.start(conf, 'run2');
  await p2.waitFor(UPLOADED, { count: (crash.store?.pendingChunkFiles ?? 0) + 2, timeoutMs: 60_000 });
  await rec.stop(p2, 'SIGTERM');
  const after = await rec.stage('after-run2');
  return {
    title: 'SIGKILL with pending chunks; the index file survives',
    purpose:
      'SIGKILL while chunks wait in the active stream: no graceful destroy, so `sequence/` and the pending chunks stay. The restart continues the index and uploads the backlog first.',
    procedure: [
      'run1: start; after 3 `Successfully uploaded object` lines and at least 2 non-empty chunk files in the store, +0.7 s, `SIGKILL`; snapshot `after-crash`.',
      'run2 (next second, same config): start; after (pending chunks + 2) uploads, `SIGTERM`; snapshot `after-run2`.',
    ],
    observations: {
      seqIndexAfterCrash: crash.store?.seqIndexFiles.seq_index_0?.value ?? null,
      uploadedByRun1: uploadedRun1,
      pendingAfterCrash: chunkShape(crash),
      run2ContinuingAt: /Continuing at index=(\d+)/.exec(p2.log())?.[1] ?? 'none (no line)',
      objectsWithNulBytesAfterRun2: nul(after),
      sequenceDirAfterRun2: after.store?.sequenceDirPresent ? 'kept' : 'deleted',
    },
  };
}

export async function multipartInflight({ rec }: ScenarioContext, twoTags: boolean): Promise<ScenarioResult> {
  const tags = twoTags ? ['app.big', 'app.huge'] : ['app.big'];
  const conf = rec.lab.writeConfig('run1', { inputs: tags.map(big), output: MULTIPART, grace: 10 });
  const p1 = rec.start(conf, 'run1');
  if (twoTags) for (const t of tags) await p1.waitFor(new RegExp(`Successfully uploaded part #1 for /${t.replace('.', '\\.')}/`), { timeoutMs: 60_000 });
  else await p1.waitFor(/Successfully uploaded part #2 /, { timeoutMs: 60_000 });
  await rec.stop(p1, 'SIGKILL');
  const crash = await rec.stage('after-crash');
  await nextSecond();
  const p2 = rec.start(conf, 'run2');
  await p2.waitFor(twoTags ? /CompleteMultipartUpload|Successfully completed multipart upload|Could not complete/ : /Successfully completed multipart upload/, {
    timeoutMs: 30_000,
  });
  await sleep(1500);
  await rec.stop(p2, 'SIGTERM');
  const after = await rec.stage('after-run2');
  const records = (crash.store?.chunkFiles ?? []).filter((c) => c.payloadKind === 'multipart_upload_metadata');
  const partsLogged = p1
    .matches(/Successfully uploaded part #(\d+) for (\S+), UploadId=([^,\s]+), ETag=(\S+)/g)
    .map((m) => ({ part: Number(m[1]), key: m[2], etag: m[4] }));
  return {
    title: twoTags ? 'SIGKILL with two multipart uploads in flight (two tags)' : 'SIGKILL with one multipart upload in flight',
    purpose: `\`use_put_object Off\`, \`upload_chunk_size 5242880\`, \`total_file_size 50M\`: ${twoTags ? 'two tags upload concurrently; SIGKILL once each has a part' : 'SIGKILL after part #2'}. The store keeps \`multipart_upload_metadata/\`; the server keeps the open upload(s). Run 2 shows what Fluent Bit does with them.`,
    procedure: [
      `run1: start; ${twoTags ? 'after `Successfully uploaded part #1` for both `/app.big/` and `/app.huge/`' : 'after `Successfully uploaded part #2`'}, \`SIGKILL\`; snapshot \`after-crash\` (with \`s3api-list-multipart-uploads-after-crash.json\`).`,
      'run2 (next second, same config): start; after its first completion attempt of the restored upload (+1.5 s), `SIGTERM`; snapshot `after-run2`.',
    ],
    observations: {
      partsUploadedByRun1: partsLogged,
      multipartRecordsAfterCrash: records.map((c) => ({
        s3Key: 's3Key' in c ? c.s3Key : null,
        parts: 'parts' in c ? c.parts : null,
        contentLengthField: c.contentLengthField,
        fileSize: c.fileSize,
      })),
      openUploadsAfterCrash: (crash.s3?.inProgressMultipartUploads ?? []).map((u) => ({
        key: u.key,
        parts: u.parts.map((x) => ({ partNumber: x.partNumber, etag: x.etag, size: x.size })),
      })),
      run2CompletionErrors: p2.matches(/CompleteMultipartUpload API responded with error='([^']*)'/g).map((m) => m[1]),
      run2Completed: p2.matches(/Successfully completed multipart upload for ([^,\s]+)/g).map((m) => m[1]),
      openUploadsAfterRun2: (after.s3?.inProgressMultipartUploads ?? []).map((u) => `${u.key} (${u.parts.length} parts)`),
      pendingChunksAfterCrash: chunkShape(crash).filter((c) => !c.path.startsWith('multipart_upload_metadata/')),
    },
  };
}

/** run1 against a closed loopback port until chunks are given up; `thenBin` (if any) runs run2. */
export async function bufferedBacklog({ rec, thenBin }: ScenarioContext): Promise<ScenarioResult> {
  const port = await closedPort();
  const down = rec.lab.writeConfig('run1-s3-down', { output: { keyFormat: KEY, endpoint: `http://127.0.0.1:${port}`, retryLimit: 1 } });
  const watcher = rec.watchSeqIndex();
  const p1 = rec.start(down, 'run1-s3-down');
  await p1.waitFor(/will not retry/, { count: 2, timeoutMs: 90_000 });
  await sleep(1000);
  await rec.stop(p1, 'SIGTERM');
  const seqWrites = watcher.stop();
  const s1 = await rec.stage('after-run1');
  const up = rec.lab.writeConfig('run2', { output: { keyFormat: KEY, retryLimit: 1 } });
  await nextSecond();
  const p2 = rec.start(up, 'run2', thenBin);
  await p2.waitFor(UPLOADED, { count: 2, timeoutMs: 60_000 });
  await sleep(3000);
  await rec.stop(p2, 'SIGTERM');
  const s2 = await rec.stage('after-run2');
  const run2Keys = p2.matches(/Successfully uploaded object (\S+)/g).map((m) => m[1]);
  const quarantinedRecords = s1.store?.quarantinedRecords ?? 0;
  const records1 = (s1.store?.pendingRecords ?? 0) + quarantinedRecords;
  const recordsInBucket = (s2.s3?.objects ?? []).reduce((a, o) => a + o.records, 0);
  return {
    title: thenBin
      ? `a ${rec.lab.fb.version} backlog with quarantine/, restarted by ${thenBin.version}`
      : 'S3 unreachable: retries exhausted, backlog left in the store',
    purpose: `run1's endpoint is a closed loopback port (connection refused), \`retry_limit 1\`; it is stopped with SIGTERM once two chunks were given up ("will not retry"). run2 ${thenBin ? `is **Fluent Bit ${thenBin.version}** on the same store_dir` : 'is the same binary'} with the real endpoint.`,
    procedure: [
      `run1 (endpoint \`http://127.0.0.1:<closed port>\`, \`retry_limit 1\`): start; after the 2nd \`will not retry\` line, +1 s, \`SIGTERM\`; snapshot \`after-run1\`. Meanwhile inotify counted the writes of \`seq_index_0\`.`,
      `run2 (${thenBin ? `fluent-bit ${thenBin.version}, ` : ''}real endpoint, next second): start; after 2 uploads, +3 s, \`SIGTERM\`; snapshot \`after-run2\`.`,
    ],
    observations: {
      run1Exit: rec.runs[0].exit,
      run1TriesBeforeGivingUp: p1.matches(/failed to send (\d+) times, will not retry/g).map((m) => Number(m[1])),
      run1PutObjectFailures: p1.matches(/PutObject request failed/g).length,
      run1QuarantinedLines: p1.matches(/moved to quarantine/g).length,
      seqIndexWritesDuringRun1WithNoSuccessfulUpload: seqWrites,
      storeAfterRun1: {
        streams: s1.store?.streams,
        pendingChunkFiles: s1.store?.pendingChunkFiles,
        quarantinedChunkFiles: s1.store?.quarantinedChunkFiles,
        sequenceDirPresent: s1.store?.sequenceDirPresent,
      },
      chunkShapesAfterRun1: chunkShape(s1),
      run2UploadedKeys: run2Keys,
      recordsBufferedAfterRun1: records1,
      recordsInBucketAfterRun2: recordsInBucket,
      quarantineAfterRun2: { present: s2.store?.quarantineDirPresent ?? false, files: s2.store?.quarantinedChunkFiles ?? 0 },
      pendingAfterRun2: s2.store?.pendingChunkFiles ?? 0,
      objectsWithNulBytesAfterRun2: nul(s2),
    },
  };
}

/** One tag, 10 records, S3 unreachable: what a graceful stop does with a chunk that used up its tries. */
export async function retryExhaustedStop({ rec }: ScenarioContext): Promise<ScenarioResult> {
  const port = await closedPort();
  const input: DummyInput = { tag: 'app.web', rate: 5, samples: 10, record: { msg: 'GET /index.html 200' } };
  const conf = rec.lab.writeConfig('run1-s3-down', { inputs: [input], output: { keyFormat: KEY, endpoint: `http://127.0.0.1:${port}`, retryLimit: 1 } });
  const p = rec.start(conf, 'run1-s3-down');
  let gaveUp: string | null = null;
  const deadline = Date.now() + 40_000;
  while (!gaveUp && Date.now() < deadline && p.running) {
    gaveUp = /.*(will not retry|moved to quarantine).*/.exec(p.log())?.[0] ?? null;
    await sleep(200);
  }
  await sleep(2000);
  const before = rec.lab.store();
  const recordsBefore = dataChunks(before).reduce((a, c) => a + (c.lines?.records.length ?? 0), 0);
  rec.note(`before the stop: ${dataChunks(before).length} chunk files, ${recordsBefore} records (read, not archived: Fluent Bit was running)`);
  await rec.stop(p, 'SIGTERM');
  const st = await rec.stage('after-run1');
  const recordsAfter = (st.store?.pendingRecords ?? 0) + (st.store?.quarantinedRecords ?? 0);
  return {
    title: 'graceful stop after a chunk used up its tries (S3 unreachable)',
    purpose:
      'One dummy input that stops after 10 records (`samples 10`), endpoint on a closed loopback port, `retry_limit 1`. Once Fluent Bit logs that it gives the chunk up (or after 40 s when it logs no such line while running: 1.9.10 and 3.2.10 retry from the upload timer and say it only at the exit), +2 s, SIGTERM. Shows whether the records survive the graceful stop.',
    procedure: [
      'run1: start; wait (up to 40 s) for `will not retry` / `moved to quarantine`; +2 s; count the buffered records (read in place); `SIGTERM`; snapshot `after-run1`.',
    ],
    observations: {
      gaveUpLineWhileRunning: gaveUp ? rec.relocate(gaveUp) : 'none within 40 s',
      furtherGiveUpLines: p
        .matches(/.*(will not retry|moved to quarantine).*/g)
        .map((m) => rec.relocate(m[0]))
        .filter((l) => l !== gaveUp),
      putObjectFailures: p.matches(/PutObject request failed/g).length,
      recordsBufferedBeforeStop: recordsBefore,
      recordsInStoreAfterStop: recordsAfter,
      recordsLostByTheStop: recordsBefore - recordsAfter,
      storeAfterStop: { streams: st.store?.streams, pendingChunkFiles: st.store?.pendingChunkFiles, quarantinedChunkFiles: st.store?.quarantinedChunkFiles },
    },
  };
}

export const SCENARIOS: Record<string, { run: (c: ScenarioContext) => Promise<ScenarioResult>; versioning?: boolean; needsThenBin?: boolean }> = {
  'index-reset': { run: indexReset, versioning: true },
  'crash-during-run': { run: crashDuringRun },
  'multipart-inflight': { run: (c) => multipartInflight(c, false) },
  'multipart-two-tags': { run: (c) => multipartInflight(c, true) },
  'buffered-backlog': { run: bufferedBacklog },
  'downgrade-quarantine': { run: bufferedBacklog, needsThenBin: true },
  'retry-exhausted-stop': { run: retryExhaustedStop },
};
