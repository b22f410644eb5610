/**
 * Diagnose a store the way the CLI does — through an engine session (store.open → config.load →
 * evidence → diagnose.run) — for tests that check the whole pipeline on real fixtures.
 */
import { createEngine, dispatchRequest } from '../../electron/engine';
import { findOutput } from '../../electron/engine/fluentbit';
import type { Engine, RequestName } from '../../shared/contract';
import type { Diagnosis, FluentBitConfig, S3ConnectionOptions, S3Evidence, StoreReport } from '../../shared/model';

export interface DiagnoseStoreOptions {
  storePath: string;
  configPath?: string;
  listing?: string[];
  versions?: string[];
  multipart?: string[];
  /** List live with this connection (the AWS default chain: tests set env credentials). */
  live?: S3ConnectionOptions | null;
  fullListing?: boolean;
  at?: Date;
  outputId?: number;
  /** An output by name or alias, resolved against the config as the CLI's --output does. */
  output?: string;
  /** The Fluent Bit version (store.fluentBitVersion), as --fluent-bit-version gives it. */
  fluentBitVersion?: string;
  /** A Fluent Bit binary whose --version is read, as --fluent-bit-bin gives it. */
  fluentBitBin?: string;
}

export interface DiagnosedStore {
  storeId: string;
  report: StoreReport;
  config: FluentBitConfig | null;
  evidence: Map<number, S3Evidence>;
  diagnosis: Diagnosis;
  engine: Engine;
}

async function call<T>(engine: Engine, name: RequestName, input: unknown): Promise<T> {
  const r = await dispatchRequest(engine, name, input);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value as T;
}

/** The engine stays open (for planning next): dispose it with `engine.dispose()` when done, or use `diagnoseStore`. */
export async function openDiagnosed(opts: DiagnoseStoreOptions): Promise<DiagnosedStore> {
  const engine = createEngine({ door: 'cli', watch: false });
  const at = opts.at?.toISOString();
  const opened = await call<{ storeId: string; report: StoreReport }>(engine, 'store.open', { path: opts.storePath });
  const storeId = opened.storeId;
  if (opts.fluentBitVersion !== undefined || opts.fluentBitBin !== undefined)
    await call(engine, 'store.fluentBitVersion', {
      storeId,
      ...(opts.fluentBitBin !== undefined ? { binary: opts.fluentBitBin } : { version: opts.fluentBitVersion }),
    });
  const config = opts.configPath ? await call<FluentBitConfig>(engine, 'config.load', { storeId, path: opts.configPath }) : null;
  if (opts.output !== undefined) {
    const o = config ? findOutput(config, opts.output) : null;
    if (!o) throw new Error(`--output ${opts.output}: no output with that name or alias`);
    opts = { ...opts, outputId: o.id };
  }
  const evidence = new Map<number, S3Evidence>();
  if (opts.listing?.length || opts.versions?.length || opts.multipart?.length) {
    const ev = await call<S3Evidence>(engine, 'evidence.importFiles', {
      storeId,
      outputId: opts.outputId,
      listing: opts.listing,
      versions: opts.versions,
      multipart: opts.multipart,
    });
    const d = await call<Diagnosis>(engine, 'diagnose.run', { storeId, at });
    const tied = d.checks.outputs.find((o) => o.listing !== 'none' && o.listing !== 'unusable');
    if (tied) evidence.set(tied.id, ev);
  }
  if (opts.live) {
    for (const o of config?.outputs ?? []) {
      if (!o.s3 || evidence.has(o.id) || (opts.outputId !== undefined && o.id !== opts.outputId)) continue;
      evidence.set(
        o.id,
        await call<S3Evidence>(engine, 'evidence.live', { storeId, outputId: o.id, connection: opts.live, at, fullListing: opts.fullListing }),
      );
    }
  }
  const diagnosis = await call<Diagnosis>(engine, 'diagnose.run', { storeId, at, outputId: opts.outputId });
  return { storeId, report: opened.report, config, evidence, diagnosis, engine };
}

export async function diagnoseStore(opts: DiagnoseStoreOptions): Promise<Omit<DiagnosedStore, 'engine'>> {
  const d = await openDiagnosed(opts);
  await d.engine.dispose();
  return d;
}
