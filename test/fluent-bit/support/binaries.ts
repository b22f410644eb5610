/**
 * Which real Fluent Bit binaries the suite runs against.
 *
 *   FLUENT_BIT_BIN=/path/to/fluent-bit          one binary
 *   FLUENT_BIT_DIR=/dir                          every /dir/<version>/bin/fluent-bit
 *   FLUENT_BIT_VERSIONS=5.0.9,1.9.10            only these versions (of the ones found)
 *
 * The version always comes from `fluent-bit --version` (never from the folder name). With neither
 * variable set there are no binaries: the suite is skipped and says why, it is never "passed".
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

export interface FluentBitBinary {
  /** `1.9.10`, from `fluent-bit --version`. */
  version: string;
  major: number;
  path: string;
}

export interface Discovery {
  binaries: FluentBitBinary[];
  /** Why the list is empty (or shorter than asked), for the skip message. */
  skipReason: string | null;
  /** Binaries that were found but could not be run (`--version` failed), with the error. */
  broken: { path: string; error: string }[];
}

/** `Fluent Bit v1.9.10` → `1.9.10`; null when the output is not a Fluent Bit banner. */
export function parseVersionOutput(text: string): string | null {
  const m = /^Fluent Bit v(\d+\.\d+\.\d+)\s*$/m.exec(text);
  return m ? m[1] : null;
}

export function readVersion(bin: string): string {
  const out = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const v = parseVersionOutput(out);
  if (!v) throw new Error(`${bin} --version printed no "Fluent Bit v<x.y.z>" line: ${JSON.stringify(out.slice(0, 200))}`);
  return v;
}

/** Numeric comparison of dotted versions (`1.9.10` < `3.2.10`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

function candidates(env: NodeJS.ProcessEnv): { paths: string[]; source: string } | { paths: null; reason: string } {
  if (env.FLUENT_BIT_BIN) {
    const p = path.resolve(env.FLUENT_BIT_BIN);
    if (!existsSync(p)) return { paths: null, reason: `FLUENT_BIT_BIN=${env.FLUENT_BIT_BIN}: no such file` };
    return { paths: [p], source: `FLUENT_BIT_BIN=${env.FLUENT_BIT_BIN}` };
  }
  if (env.FLUENT_BIT_DIR) {
    const dir = path.resolve(env.FLUENT_BIT_DIR);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return { paths: null, reason: `FLUENT_BIT_DIR=${env.FLUENT_BIT_DIR}: not a directory` };
    const paths = readdirSync(dir)
      .map((v) => path.join(dir, v, 'bin', 'fluent-bit'))
      .filter((p) => existsSync(p));
    if (!paths.length) return { paths: null, reason: `FLUENT_BIT_DIR=${env.FLUENT_BIT_DIR}: no <version>/bin/fluent-bit in it` };
    return { paths, source: `FLUENT_BIT_DIR=${env.FLUENT_BIT_DIR}` };
  }
  return { paths: null, reason: 'neither FLUENT_BIT_BIN nor FLUENT_BIT_DIR is set' };
}

export function discoverFluentBit(env: NodeJS.ProcessEnv = process.env): Discovery {
  const c = candidates(env);
  if (c.paths === null) return { binaries: [], skipReason: c.reason, broken: [] };
  const broken: Discovery['broken'] = [];
  let binaries: FluentBitBinary[] = [];
  for (const p of c.paths) {
    try {
      const version = readVersion(p);
      binaries.push({ version, major: Number(version.split('.')[0]), path: p });
    } catch (e) {
      broken.push({ path: p, error: (e as Error).message.split('\n')[0] });
    }
  }
  binaries.sort((a, b) => compareVersions(a.version, b.version));
  let skipReason: string | null = null;
  const wanted = (env.FLUENT_BIT_VERSIONS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (wanted.length) {
    const missing = wanted.filter((w) => !binaries.some((b) => b.version === w));
    binaries = binaries.filter((b) => wanted.includes(b.version));
    if (missing.length) skipReason = `FLUENT_BIT_VERSIONS asks for ${missing.join(', ')}, not found in ${c.source}`;
  }
  if (!binaries.length && !skipReason)
    skipReason = broken.length ? `no runnable binary in ${c.source}: ${broken.map((b) => `${b.path}: ${b.error}`).join('; ')}` : `no binary in ${c.source}`;
  return { binaries, skipReason, broken };
}
