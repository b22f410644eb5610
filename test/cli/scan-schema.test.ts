/** `scan --json` conforms to its documented schema on every real snapshot and on the edge-case store. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanJsonSchema, scanReportSchema } from '../../shared/scan-schema';
import { generateEdgeCaseStore } from '../fixtures/generate';

const ROOT = path.join(__dirname, '../..');
const REAL = path.join(ROOT, 'test/fixtures/fluent-bit-real');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-schema-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function scanJson(target: string) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), 'scan', target, '--json'], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, json: JSON.parse(r.stdout) as unknown };
}

describe('scan --json schema', () => {
  const tars = fs.readdirSync(REAL).flatMap((d) =>
    fs.statSync(path.join(REAL, d)).isDirectory()
      ? fs
          .readdirSync(path.join(REAL, d))
          .filter((f) => /^store-.*\.tar\.gz$/.test(f))
          .map((f) => path.join(REAL, d, f))
      : [],
  );

  it('finds the real snapshots', () => expect(tars.length).toBeGreaterThanOrEqual(10));

  it.each(tars.slice(0, 4))('%s conforms', (tarFile) => {
    const { code, json } = scanJson(tarFile);
    expect(code).toBe(0);
    const parsed = scanReportSchema.safeParse(json);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  });

  it('the edge-case store (every status) conforms and exits 3', async () => {
    const dir = path.join(tmp, 'edge');
    await generateEdgeCaseStore(dir);
    const { code, json } = scanJson(dir);
    expect(code).toBe(3);
    const parsed = scanReportSchema.safeParse(json);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
    const statuses = new Set(scanReportSchema.parse(json).roots.flatMap((r) => r.streams.flatMap((s) => s.chunks.map((c) => c.status))));
    expect([...statuses].sort()).toEqual(['bad-magic', 'crc-mismatch', 'legacy-length', 'ok', 'too-short', 'truncated', 'zero-byte']);
  });

  it('rejects output that breaks the contract (the schema can fail)', () => {
    const { json } = scanJson(tars[0]);
    const broken = structuredClone(json) as { roots: { streams: { kind: string }[] }[] };
    broken.roots[0].streams[0].kind = 'bogus';
    expect(scanReportSchema.safeParse(broken).success).toBe(false);
  });

  it('docs/scan.schema.json is current (npm run schema)', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/scan.schema.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(scanJsonSchema())));
  });
});
