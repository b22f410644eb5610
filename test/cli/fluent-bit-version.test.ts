/**
 * The CLI's Fluent Bit version options (README "Evidence options"): `--fluent-bit-version x.y.z`,
 * `--fluent-bit-bin <path>` (its `--version` is read), or neither (what the store shows). The
 * diagnosis says which version it applies and where it came from, and the command lines it
 * recommends repeat the version.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const REAL = path.join(ROOT, 'test/fixtures/fluent-bit-real');
const fx = (v: string, scenario: string, file: string) => path.join(REAL, v, scenario, file);

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

interface JsonFinding {
  code: string;
  severity: string;
  commands: string[];
}

describe('store-doctor diagnose: the Fluent Bit version', { timeout: 120_000 }, () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(tmpdir(), 'sd-fbver-cli-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('inferred from a 1.9.10 store: said in the checked lines; its crash padding is a warning, not damage', async () => {
    const args = ['diagnose', fx('v1.9.10', 'crash-during-run', 'store-after-crash.tar.gz'), '--config', fx('v1.9.10', 'crash-during-run', 'fluent-bit.conf')];
    const text = await cli(args);
    expect(text.stdout).toContain('  Fluent Bit 1.x (or 2.x), inferred from the store (chunks with content-length field 0)\n');
    expect(text.stdout).toMatch(/WARNING CHUNK_NUL_PADDING: 2 chunks will be uploaded with 5,011 NUL bytes/);
    expect(text.stdout).not.toContain('CHUNK_DAMAGED');
    const j = JSON.parse((await cli([...args, '--json'])).stdout);
    expect(j.fluentBit).toMatchObject({ source: 'inferred', version: null, assumes: ['1.9.10'] });
  });

  it('--fluent-bit-version 4.2.8 on a 5.0.9 store: the downgrade finding; recommended commands keep the version', async () => {
    const r = await cli([
      'diagnose',
      fx('v4.2.8', 'downgrade-quarantine-from-5.0.9', 'store-after-run1.tar.gz'),
      '--config',
      fx('v4.2.8', 'downgrade-quarantine-from-5.0.9', 'fluent-bit.conf'),
      '--fluent-bit-version',
      'v4.2.8',
      '--json',
    ]);
    const j = JSON.parse(r.stdout);
    expect(j.fluentBit).toEqual({
      source: 'given',
      version: '4.2.8',
      assumes: ['4.2.8'],
      text: 'Fluent Bit 4.2.8, given',
      evidence: ['given: Fluent Bit 4.2.8'],
    });
    const findings: JsonFinding[] = j.outputs[0].findings;
    const g = findings.find((f) => f.code === 'QUARANTINE_DOWNGRADE')!;
    expect(g.severity).toBe('warning');
    expect(g.commands[0]).toMatch(/^store-doctor replay .* --live --fluent-bit-version 4\.2\.8 --apply$/);
    expect(findings.map((f) => f.code)).not.toContain('QUARANTINED_DATA');
  });

  it('--fluent-bit-bin reads the binary', async () => {
    const bin = path.join(dir, 'fluent-bit');
    fs.writeFileSync(bin, '#!/bin/sh\necho "Fluent Bit v1.9.10"\necho "Git commit: "\n', { mode: 0o755 });
    const r = await cli([
      'diagnose',
      fx('v5.0.9', 'index-reset', 'store-after-run1.tar.gz'),
      '--config',
      fx('v5.0.9', 'index-reset', 'fluent-bit.conf'),
      '--fluent-bit-bin',
      bin,
      '--json',
    ]);
    const j = JSON.parse(r.stdout);
    expect(j.fluentBit).toMatchObject({ source: 'binary', version: '1.9.10', evidence: [`${bin} --version printed "Fluent Bit v1.9.10"`] });
    expect(j.outputs[0].findings.find((f: JsonFinding) => f.code === 'CONFIG_HTTP_WITHOUT_TLS_OFF').severity).toBe('error');
    expect(r.code).toBe(4);
  });

  it.each([
    [['--fluent-bit-version', 'latest'], /--fluent-bit-version latest: not a version/],
    [['--fluent-bit-version', '1.9.10', '--fluent-bit-bin', '/usr/bin/true'], /give --fluent-bit-version or --fluent-bit-bin, not both/],
    [['--fluent-bit-bin', '/nonexistent/fluent-bit'], /\/nonexistent\/fluent-bit: no such file/],
  ])('bad usage %j → exit 2', async (extra, msg) => {
    const r = await cli(['diagnose', fx('v5.0.9', 'index-reset', 'store-after-run1.tar.gz'), ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
  });
});
