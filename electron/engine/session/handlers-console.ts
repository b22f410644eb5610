/**
 * Requests the app's console views need: a writable copy of the demo (store.openDemoCopy), where
 * a store's data sits (store.storage), the history of applied actions (history.list), and the S3
 * target of an output — resolved, tested with one HeadBucket, saved per bucket (connection.*).
 * None of them writes into a store.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineHandlers } from '../../../shared/contract';
import type { FluentBitOutput } from '../../../shared/model';
import { describeTarget, parseOfflineEvidence, testConnection } from '../s3';
import { storageSummary } from '../store/storage';
import { storagePathBacklog } from '../../../shared/storage-path-backlog';
import { configuredStoragePath } from '../storage-path';
import { configuredStoragePathReport } from './handlers-storage-path';
import { loadConfigFile } from './config';
import { readDemo } from './demo';
import { extractDemoCopy } from './demo-copy';
import { EngineError } from './errors';
import type { SessionContext } from './handlers-store';
import { openStore } from './handlers-store';
import { readHistory } from './history';
import { toOpened, type StoreSession } from './registry';
import type { SavedConnections } from './connections';

type ConsoleHandlers = Pick<
  EngineHandlers,
  | 'store.openDemoCopy'
  | 'store.storage'
  | 'history.list'
  | 'connection.describe'
  | 'connection.test'
  | 'connection.list'
  | 'connection.save'
  | 'connection.forget'
>;

function s3OutputOf(s: StoreSession, outputId: number): FluentBitOutput {
  if (!s.config) throw new EngineError('refused', "load the Fluent Bit config first: the S3 target comes from the output's bucket, region and endpoint");
  const out = s.config.outputs.find((o) => o.id === outputId);
  if (!out)
    throw new EngineError('not-found', `the config has no output with id ${outputId} (outputs: ${s.config.outputs.map((o) => o.id).join(', ') || 'none'})`);
  if (!out.s3) throw new EngineError('invalid-input', `output ${out.displayName} is a ${out.plugin} output, not s3`);
  return out;
}

/** The folder of the copy that holds the store: the archive's top folder (`store/`) when it has one. */
function storeFolderOf(copy: string): string {
  const names = fs.readdirSync(copy).filter((n) => !n.startsWith('.'));
  return names.length === 1 && fs.statSync(path.join(copy, names[0])).isDirectory() ? path.join(copy, names[0]) : copy;
}

export function consoleHandlers(ctx: SessionContext, connections: SavedConnections): ConsoleHandlers {
  return {
    'store.openDemoCopy': async (_input, ec) => {
      const demo = readDemo(ctx.demoDir);
      const copy = await extractDemoCopy(demo.storePath);
      let s: StoreSession;
      try {
        s = await openStore(ctx, storeFolderOf(copy), ec, { isDemo: true });
      } catch (err) {
        fs.rmSync(copy, { recursive: true, force: true });
        throw err;
      }
      s.cleanup = () => fs.rmSync(copy, { recursive: true, force: true });
      if (demo.configPath && !s.config) s.config = await loadConfigFile(demo.configPath);
      if (demo.listingPaths.length && !s.evidence && !s.evidenceByOutput.size) {
        const documents = demo.listingPaths.map((f) => ({ name: path.basename(f), text: fs.readFileSync(f, 'utf8') }));
        const evidence = parseOfflineEvidence(documents);
        if (demo.outputId !== undefined) {
          s.evidenceByOutput.set(demo.outputId, evidence);
          s.offlineDocs.set(demo.outputId, documents);
        } else s.evidence = evidence;
      }
      return { ...toOpened(s), copy: { path: s.path, from: demo.storePath } };
    },

    'store.storage': async (input) => {
      const s = ctx.registry.get(input.storeId);
      const summary = storageSummary(s.report);
      // The config's storage.path (the engine buffer beside the S3 store_dir), read now: headers, CRCs and records.
      const sp = await configuredStoragePathReport(s.config);
      if (sp)
        summary.storagePath = sp.report
          ? storagePathBacklog(sp.report)
          : { path: configuredStoragePath(s.config)!, checksum: null, inputs: [], error: sp.error };
      return summary;
    },

    'history.list': async (input) => readHistory(ctx.registry.get(input.storeId)),

    'connection.describe': async (input) => describeTarget(s3OutputOf(ctx.registry.get(input.storeId), input.outputId), input.connection),

    'connection.test': async (input, ec) => testConnection(s3OutputOf(ctx.registry.get(input.storeId), input.outputId), input.connection, {}, ec.signal),

    'connection.list': async () => ({ connections: await connections.list() }),

    'connection.save': async (input) => ({ saved: await connections.save(input.bucket, input.connection) }),

    'connection.forget': async (input) => ({ forgotten: await connections.forget(input.bucket) }),
  };
}
