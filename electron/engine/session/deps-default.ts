/**
 * The real engine functions behind `EngineDeps` (static imports: the CLI runs through tsx's CJS
 * hook, where a dynamic `import()` of TypeScript would bypass the transpiler).
 */
import path from 'node:path';
import type { FluentBitConfig } from '../../../shared/model';
import { readChunk, readRecords, scanStore, watchStore } from '../store';
import { loadFluentBitConfig, parseFluentBitConfig } from '../fluentbit';
import { createS3Client, parseOfflineEvidence } from '../s3';
import { listLiveEvidence } from '../diagnose';
import type { EngineDeps } from './deps';
import { applyRepair, confirmationsFor, diagnoseSession, planRepair } from './repair-bridge';

const SECRET_KEY = /(secret|password|passwd|token|credential|access_key|session)/i;

/** Config values whose name says secret never leave the engine (they were `${ENV}`-expanded). */
export function redactConfig(config: FluentBitConfig): FluentBitConfig {
  return {
    ...config,
    outputs: config.outputs.map((o) => ({
      ...o,
      properties: Object.fromEntries(Object.entries(o.properties).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : v])),
    })),
  };
}

export function defaultDeps(): EngineDeps {
  return {
    async scanStore(p, opts) {
      return scanStore(p, { onProgress: opts.onProgress, signal: opts.signal });
    },
    async readChunk(storePath, rootPath, chunkPath) {
      const read = await readChunk(storePath, rootPath, chunkPath);
      return { info: read.info, headerHex: read.headerHex };
    },
    async readRecords(storePath, rootPath, chunkPath, offset, limit) {
      return readRecords(storePath, rootPath, chunkPath, offset, limit);
    },
    watchStore(p, onChange) {
      const watcher = watchStore(p, onChange);
      return () => watcher.close();
    },
    async loadConfigFile(p) {
      return redactConfig(await loadFluentBitConfig(p, { env: process.env }));
    },
    async loadConfigText(name, text) {
      return redactConfig(await parseFluentBitConfig(text, { fileName: path.basename(name), env: process.env }));
    },
    async parseOfflineEvidence(documents) {
      return parseOfflineEvidence(documents);
    },
    async listLive(output, connection, opts) {
      const s3 = output.s3!;
      const client = createS3Client({
        profile: connection.profile ?? s3.profile ?? undefined,
        region: connection.region ?? s3.region,
        endpoint: connection.endpoint ?? s3.endpoint ?? undefined,
        pathStyle: connection.pathStyle,
      });
      try {
        const { evidence } = await listLiveEvidence(client, {
          bucket: s3.bucket,
          keyFormat: s3.s3KeyFormat,
          tagDelimiters: s3.tagDelimiters,
          root: opts.root ?? null,
          at: opts.at ?? new Date(),
          fullListing: opts.fullListing,
          signal: opts.signal,
          onProgress: opts.onProgress,
        });
        return evidence;
      } finally {
        client.destroy();
      }
    },
    async diagnose(session, opts) {
      return diagnoseSession(session, opts);
    },
    confirmations: confirmationsFor,
    async repairPlan(session, input, opts) {
      return planRepair(session, input, opts);
    },
    async repairApply(session, input, plan, opts) {
      return applyRepair(session, input, plan, opts);
    },
  };
}
