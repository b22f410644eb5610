/**
 * Requests that read: chunk.inspect, chunk.records, config.load, evidence.importOffline,
 * evidence.live and diagnose.run. Chunk paths must lie in a root of the named store.
 */
import type { EngineHandlers } from '../../../shared/contract';
import type { Diagnosis, FluentBitOutput } from '../../../shared/model';
import { matchRoot } from '../diagnose';
import { EngineError } from './errors';
import { requireRoot, type StoreSession } from './registry';
import type { SessionContext } from './handlers-store';

type InspectHandlers = Pick<EngineHandlers, 'chunk.inspect' | 'chunk.records' | 'config.load' | 'evidence.importOffline' | 'evidence.live' | 'diagnose.run'>;

function s3Output(s: StoreSession, outputId: number): FluentBitOutput {
  if (!s.config) throw new EngineError('refused', "load the Fluent Bit config first: live listing needs the output's bucket and key format");
  const out = s.config.outputs.find((o) => o.id === outputId);
  if (!out)
    throw new EngineError('not-found', `the config has no output with id ${outputId} (outputs: ${s.config.outputs.map((o) => o.id).join(', ') || 'none'})`);
  if (!out.s3) throw new EngineError('invalid-input', `output ${out.displayName} is a ${out.plugin} output, not s3`);
  return out;
}

export async function runDiagnose(ctx: SessionContext, s: StoreSession, at?: string, outputId?: number): Promise<Diagnosis> {
  const diagnosis = await ctx.deps.diagnose(s, { at, outputId });
  s.diagnosis = diagnosis;
  return diagnosis;
}

export function inspectHandlers(ctx: SessionContext): InspectHandlers {
  return {
    'chunk.inspect': async (input) => {
      const s = ctx.registry.get(input.storeId);
      requireRoot(s, input.rootPath);
      const read = await ctx.deps.readChunk(s.path, input.rootPath, input.chunkPath);
      return { chunk: read.info, headerHex: read.headerHex };
    },

    'chunk.records': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      requireRoot(s, input.rootPath);
      return ctx.deps.readRecords(s.path, input.rootPath, input.chunkPath, input.offset, input.limit, ec.signal);
    },

    'config.load': async (input) => {
      const s = ctx.registry.get(input.storeId);
      const config = input.path ? await ctx.deps.loadConfigFile(input.path) : await ctx.deps.loadConfigText(input.document!.name, input.document!.text);
      s.config = config;
      s.diagnosis = null;
      return config;
    },

    'evidence.importOffline': async (input) => {
      const s = ctx.registry.get(input.storeId);
      const evidence = await ctx.deps.parseOfflineEvidence(input.documents);
      if (input.outputId !== undefined) s.evidenceByOutput.set(input.outputId, evidence);
      else s.evidence = evidence;
      s.diagnosis = null;
      return evidence;
    },

    'evidence.live': async (input, ec) => {
      const s = ctx.registry.get(input.storeId);
      const output = s3Output(s, input.outputId);
      const evidence = await ctx.deps.listLive(output, input.connection, {
        signal: ec.signal,
        onProgress: ec.onProgress,
        at: input.at ? new Date(input.at) : undefined,
        fullListing: input.fullListing,
        root: matchRoot(s.report, output.s3!),
      });
      s.evidenceByOutput.set(input.outputId, evidence);
      s.diagnosis = null;
      return evidence;
    },

    'diagnose.run': async (input) => runDiagnose(ctx, ctx.registry.get(input.storeId), input.at, input.outputId),
  };
}
