/**
 * The real storage.path buffers of test/fixtures/storage-path and what each Fluent Bit binary
 * measurably did with them at its next start (measurements.json, written by
 * test/fluent-bit/storage-path-harness.ts), read once for every test that compares with them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** test/fixtures/storage-path: `v<version>/<kind>/store.tar.gz` and measurements.json. */
export const STORAGE_PATH_FIXTURES = path.resolve(__dirname, '../fixtures/storage-path');

export interface MeasuredChunk {
  chunk: string;
  tag: string;
  crc: string;
  records: number;
  tornBytes: number;
  format: string;
  eventType: string;
}

/** One start of the binary on the buffer: what it delivered and which chunks it rejected. */
export interface MeasuredStart {
  delivered: number;
  unique: number;
  formatCheckFailed: string[];
  crcInvalidLines: number;
  leftAfterGracefulStop: string[];
}

export interface MeasuredRun {
  chunks: MeasuredChunk[];
  files: number;
  'checksum-on': MeasuredStart;
  'checksum-off': MeasuredStart;
}

/** Per version, per kind of run (`kill-checksum-on`, `kill-checksum-off`, `torn-last-record`, `chunks-down`). */
export const MEASURED = JSON.parse(readFileSync(path.join(STORAGE_PATH_FIXTURES, 'measurements.json'), 'utf8')) as Record<string, Record<string, MeasuredRun>>;

/** The run of `kind` measured with `version`. */
export function measuredRun(version: string, kind: string): MeasuredRun {
  const run = MEASURED[version]?.[kind];
  if (!run) throw new Error(`measurements.json has no ${kind} run of ${version}`);
  return run;
}
