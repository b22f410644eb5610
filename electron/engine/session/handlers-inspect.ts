/**
 * Requests that read: chunk.inspect, chunk.records, config.load, evidence.importOffline,
 * evidence.importFiles, evidence.live and diagnose.run. Chunk paths must lie in a root of the
 * named store.
 */
import type { EngineHandlers } from '../../../shared/contract';
import type { Diagnosis, FluentBitOutput, S3Evidence } from '../../../shared/model';
import { listLiveEvidence, matchRoot, offlineTarget, selectTargets } from '../diagnose';
import {
  clientForOutput,
  describeConnection,
  explainS3Error,
  isS3Failure,
  parseOfflineEvidence,
  readOfflineDocuments,
  resolveConnection,
  type OfflineDocument,
} from '../s3';
import { readChunk, readRecords } from '../store';
import { chunkLayout } from '../chunk/layout';
import { loadConfigFile, loadConfigText } from './config';
import { diagnoseSession } from './context';
import { EngineError } from './errors';
import { requireRoot, type StoreSession } from './registry';
import type { SessionContext } from './handlers-store';

type InspectHandlers = Pick<
  EngineHandlers,
  'chunk.inspect' | 'chunk.records' | 'config.load' | 'evidence.importOffline' | 'evidence.importFiles' | 'evidence.live' | 'diagnose.run'
>;

/** A listing that no output of this store can take is refused at import, not silently ignored. */
function checkTied(s: StoreSession, evidence: S3Evidence, outputId: number | undefined): void {
  const targets = selectTargets(s.report, s.config);
  if (targets.length) offlineTarget(targets, evidence, outputId);
}

function s3Output(s: StoreSession, outputId: number): FluentBitOutput {
  if (!s.config) throw new EngineError('refused', "load the Fluent Bit config first: live listing needs the output's bucket and key format");
  const out = s.config.outputs.find((o) => o.id === outputId);
  if (!out)
    throw new EngineError('not-found', `the config has no output with id ${outputId} (outputs: ${s.config.outputs.map((o) => o.id).join(', ') || 'none'})`);
  if (!out.s3) throw new EngineError('invalid-input', `output ${out.displayName} is a ${out.plugin} output, not s3`);
  return out;
}

/**
 * Offline evidence of an output from documents; `add` keeps the documents imported before for it
 * (a versions file after the listing), a document of the same name replaced.
 */
function importDocuments(
  s: StoreSession,
  documents: OfflineDocument[],
  outputId: number | undefined,
  add: boolean | undefined,
  door: S3Evidence['door'],
): S3Evidence {
  const key = outputId ?? -1;
  const before = add ? (s.offlineDocs.get(key) ?? []) : [];
  const names = new Set(documents.map((d) => d.name));
  const all = [...before.filter((d) => !names.has(d.name)), ...documents];
  const evidence: S3Evidence = { ...parseOfflineEvidence(all), door };
  checkTied(s, evidence, outputId);
  s.offlineDocs.set(key, all);
  if (outputId !== undefined) s.evidenceByOutput.set(outputId, evidence);
  else s.evidence = evidence;
  s.diagnosis = null;
  return evidence;
}

export function runDiagnose(s: StoreSession, at?: string, outputId?: number): Diagnosis {
  const diagnosis = diagnoseSession(s, { at, outputId });
  s.diagnosis = diagnosis;
  return diagnosis;
}

export function inspectHandlers(ctx: SessionContext): InspectHandlers {
  return {
    'chunk.inspect': async (input) => {
      const s = ctx.registry.get(input.storeId);
      const root = requireRoot(s, input.rootPath);
      const read = await readChunk(s.path, input.rootPath, input.chunkPath);
      // What Fluent Bit does with a chunk depends on its siblings: the scan of the whole stream says it.
      const scanned = root.streams.find((st) => st.name === read.info.stream)?.chunks.find((c) => c.path === read.info.path);
      const chunk = scanned && scanned.status === read.info.status ? { ...read.info, fluentBitAction: scanned.fluentBitAction } : read.info;
      return { chunk, headerHex: read.headerHex, layout: chunkLayout(read.info, read.headerHex, read.meta) };
    },

    'chunk.records': async (input) => {
      const s = ctx.registry.get(input.storeId);
      requireRoot(s, input.rootPath);
      return readRecords(s.path, input.rootPath, input.chunkPath, input.offset, input.limit);
    },

    'config.load': async (input) => {
      const s = ctx.registry.get(input.storeId);
      const config = input.path ? await loadConfigFile(input.path) : await loadConfigText(input.document!.name, input.document!.text);
      s.config = config;
      s.diagnosis = null;
      return config;
    },

    'evidence.importOffline': async (input) => importDocuments(ctx.registry.get(input.storeId), input.documents, input.outputId, input.add, ctx.door),

    'evidence.importFiles': async (input) => {
      const s = ctx.registry.get(input.storeId);
      const documents = await readOfflineDocuments({ listing: input.listing, versions: input.versions, multipart: input.multipart });
      return importDocuments(s, documents, input.outputId, input.add, ctx.door);
    },

    'evidence.live': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      const output = s3Output(s, input.outputId);
      const s3 = output.s3!;
      const client = clientForOutput(s3, input.connection);
      const shown = describeConnection(resolveConnection(s3, input.connection));
      try {
        const { evidence } = await listLiveEvidence(client, {
          bucket: s3.bucket,
          keyFormat: s3.s3KeyFormat,
          tagDelimiters: s3.tagDelimiters,
          root: matchRoot(s.report, s3),
          at: input.at ? new Date(input.at) : new Date(),
          fullListing: input.fullListing,
          signal: ec.signal,
          onProgress: ec.onProgress,
        });
        evidence.door = ctx.door;
        s.evidenceByOutput.set(input.outputId, evidence);
        s.diagnosis = null;
        return evidence;
      } catch (err) {
        if (ec.signal.aborted || !isS3Failure(err)) throw err;
        const reason = explainS3Error((err as { cause?: unknown }).cause ?? err, {
          bucket: s3.bucket,
          endpoint: shown.endpoint ?? `https://s3.${shown.region ?? s3.region}.amazonaws.com`,
          region: shown.region ?? s3.region,
        });
        // 'failed', never 'not-found'/'forbidden': those name a store or path of this session (bad usage).
        throw new EngineError('failed', `${reason} Nothing was changed (a listing only reads); the evidence shown before stays as it was.`);
      } finally {
        client.destroy();
      }
    },

    'diagnose.run': async (input) => runDiagnose(ctx.registry.get(input.storeId), input.at, input.outputId),
  };
}
