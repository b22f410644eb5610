/**
 * Fixture harness for engine buffers (`storage.path`), run with the real binaries:
 *
 *   npx tsx test/fluent-bit/storage-path-harness.ts --dir /work/shared/fluent-bit --out test/fixtures/storage-path [--versions 5.0.9,1.9.10]
 *
 * For each version and kind (kill-checksum-on, kill-checksum-off, torn-last-record, chunks-down):
 * makes a buffer (SIGKILL while the data is unflushed), copies it to <out>/v<version>/<kind>/store,
 * then measures what the same binary does with it at the next start (storage.checksum on and off;
 * and on again after `salvage`): records delivered on a stdout json_lines output, `format check
 * failed` lines, files left after a graceful stop. Everything goes to <out>/measurements.json, from
 * which docs/storage-path.md's table is written (printed by --table).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanStoragePath } from '../../electron/engine/storage-path';
import { applySalvage, planSalvage } from '../../electron/engine/repair';
import { readVersion } from './support/binaries';
import { BUFFER_KINDS, makeBuffer, restart, type RestartResult } from './support/engine-buffer';
import { reapAll } from './support/process';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const brief = (r: RestartResult) => ({
  delivered: r.delivered,
  unique: r.unique,
  formatCheckFailed: r.formatCheckFailed,
  crcInvalidLines: r.crcInvalid,
  leftAfterGracefulStop: r.left,
  exit: r.exit,
});

async function measure(bin: string, fixture: string) {
  const out: Record<string, unknown> = {};
  for (const mode of ['checksum-on', 'checksum-off', 'salvaged-checksum-on'] as const) {
    const work = mkdtempSync(path.join(os.tmpdir(), 'sd-sp-measure-'));
    try {
      const store = path.join(work, 'store');
      cpSync(fixture, store, { recursive: true });
      let salvage: unknown = null;
      if (mode === 'salvaged-checksum-on') {
        const plan = await planSalvage(await scanStoragePath(store, {}));
        const res = await applySalvage(plan);
        salvage = {
          chunks:
            plan.details?.kind === 'salvage'
              ? plan.details.chunks.map((c) => ({ chunk: path.relative(store, c.path), records: c.records, cutBytes: c.cutBytes }))
              : [],
          verified: res.verified,
        };
      }
      const r = await restart(bin, work, store, mode !== 'checksum-off', null);
      out[mode] = { ...brief(r), ...(salvage ? { salvage } : {}) };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return out;
}

async function main() {
  if (process.argv.includes('--table')) return printTable(arg('--out') ?? 'test/fixtures/storage-path');
  const dir = arg('--dir');
  const outDir = path.resolve(arg('--out') ?? 'test/fixtures/storage-path');
  if (!dir) throw new Error('--dir <folder with <version>/bin/fluent-bit> is required');
  const versions = (arg('--versions') ?? '1.9.10,3.2.10,4.2.8,5.0.9,5.1.1').split(',');
  const file = path.join(outDir, 'measurements.json');
  const all: Record<string, Record<string, unknown>> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  for (const v of versions) {
    const bin = path.join(dir, v, 'bin', 'fluent-bit');
    const version = readVersion(bin);
    all[version] ??= {};
    for (const kind of BUFFER_KINDS) {
      const work = mkdtempSync(path.join(os.tmpdir(), 'sd-sp-gen-'));
      try {
        await makeBuffer(bin, work, kind);
        const dest = path.join(outDir, `v${version}`, kind);
        rmSync(dest, { recursive: true, force: true });
        mkdirSync(dest, { recursive: true });
        cpSync(path.join(work, 'store'), path.join(dest, 'store'), { recursive: true });
        writeFileSync(path.join(dest, 'generate.conf'), readFileSync(path.join(work, 'generate.conf'), 'utf8').split(path.join(work, 'store')).join('<store>'));
        const report = await scanStoragePath(path.join(dest, 'store'));
        const chunks = report.streams.flatMap((s) =>
          s.chunks.map((c) => ({
            chunk: c.path,
            tag: c.tag,
            crc: c.crc,
            records: c.records,
            tornBytes: c.tornBytes,
            format: c.format,
            eventType: c.eventType,
          })),
        );
        const m = await measure(bin, path.join(dest, 'store'));
        // Kept as a tar (the chunks are page-padded and repetitive): tests extract it.
        execFileSync('tar', ['-czf', path.join(dest, 'store.tar.gz'), '-C', dest, 'store']);
        rmSync(path.join(dest, 'store'), { recursive: true, force: true });
        all[version][kind] = { chunks, files: chunks.length, ...m };
        process.stdout.write(`${version} ${kind}: ${JSON.stringify(all[version][kind])}\n`);
        writeFileSync(file, JSON.stringify(all, null, 2) + '\n');
      } finally {
        rmSync(work, { recursive: true, force: true });
        await reapAll();
      }
    }
  }
}

interface Run {
  delivered: number;
  unique: number;
  formatCheckFailed: string[];
  leftAfterGracefulStop: string[];
}
interface Measured {
  files: number;
  chunks: { crc: string; records: number; tornBytes: number }[];
  'checksum-on': Run;
  'checksum-off': Run;
  'salvaged-checksum-on': Run;
}

function printTable(outDir: string) {
  const all = JSON.parse(readFileSync(path.join(outDir, 'measurements.json'), 'utf8')) as Record<string, Record<string, Measured>>;
  const rows = [
    '| version | buffer | chunks (records; CRC; torn) | checksum on: delivered / rejected | checksum off: delivered / rejected | files left (on / off) | after salvage, checksum on |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [v, kinds] of Object.entries(all))
    for (const [k, m] of Object.entries(kinds)) {
      const rec = m.chunks.reduce((n, c) => n + c.records, 0);
      const crcs = [...new Set(m.chunks.map((c) => c.crc))].join('/');
      const torn = m.chunks.filter((c) => c.tornBytes).length;
      const on = m['checksum-on'];
      const off = m['checksum-off'];
      const sal = m['salvaged-checksum-on'];
      rows.push(
        `| ${v} | ${k} | ${m.chunks.length} (${rec}; ${crcs}; ${torn} torn) | ${on.delivered} / ${on.formatCheckFailed.length} | ${off.delivered} / ${off.formatCheckFailed.length} | ${on.leftAfterGracefulStop.length} / ${off.leftAfterGracefulStop.length} | ${sal.delivered} delivered (${sal.unique} unique), ${sal.formatCheckFailed.length} rejected |`,
      );
    }
  process.stdout.write(rows.join('\n') + '\n');
}

main()
  .catch((err) => {
    process.stderr.write(`storage-path-harness: ${(err as Error).stack}\n`);
    process.exitCode = 1;
  })
  .finally(() => void reapAll());
