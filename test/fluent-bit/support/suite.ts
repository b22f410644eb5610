/**
 * Declares a scenario group once per Fluent Bit binary found (see binaries.ts). Without binaries
 * the same tests are declared under a skipped describe whose title carries the reason — so the
 * report says "skipped (no Fluent Bit binaries: …)", never "passed".
 *
 *   forEachFluentBit('repair-index', (fb) => { it('…', () => withLab(fb, 'repair', async (lab) => { … })) })
 */
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, onTestFinished } from 'vitest';
import { discoverFluentBit, type FluentBitBinary } from './binaries';
import { REPO } from './cli';
import { Lab } from './lab';
import { reapAll } from './process';

export const discovery = discoverFluentBit();

const PLACEHOLDER: FluentBitBinary = { version: '0.0.0', major: 0, path: '/nonexistent/fluent-bit' };

export function forEachFluentBit(name: string, body: (fb: FluentBitBinary) => void): void {
  if (discovery.skipReason)
    describe.skip(`${name} — no Fluent Bit binaries: ${discovery.skipReason}`, () => {
      body(PLACEHOLDER);
    });
  for (const fb of discovery.binaries)
    describe(`${name} — Fluent Bit ${fb.version}`, () => {
      afterEach(async () => {
        await reapAll();
      });
      afterAll(async () => {
        await reapAll();
      });
      body(fb);
    });
}

/** Copies a lab's configs and logs to test-results/fluent-bit/<lab folder>/ (small files). */
function keepArtifacts(lab: Lab): string {
  const out = path.join(REPO, 'test-results', 'fluent-bit', path.basename(lab.dir));
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(lab.dir)) if (/\.(log|conf|json|txt)$/.test(f)) cpSync(path.join(lab.dir, f), path.join(out, f));
  return out;
}

/**
 * Opens a lab, runs `fn`, and always closes it (Fluent Bits reaped, folder removed). The configs
 * and Fluent Bit logs of a failed test stay in test-results/fluent-bit/.
 */
export async function withLab<T>(fb: FluentBitBinary, name: string, fn: (lab: Lab) => Promise<T>, opts: { versioning?: boolean } = {}): Promise<T> {
  const lab = await Lab.open(fb, name, opts);
  let kept: string | null = null;
  onTestFinished((ctx) => {
    if (kept && ctx.task.result?.state === 'pass') rmSync(kept, { recursive: true, force: true });
  });
  try {
    return await fn(lab);
  } finally {
    for (const p of lab.runs) if (p.running) await p.stop('SIGKILL').catch(() => undefined);
    kept = keepArtifacts(lab);
    await lab.close();
  }
}
