/**
 * Tests never race the clock: no unit, e2e or real-Fluent-Bit test asserts a wall-clock threshold
 * or sleeps in place of waiting for a state. Latency targets live in the benches (test/bench) and
 * the stress runs (test/stress); a test waits for states and events, so `npm test` passes on a
 * machine whose cores are busy with other work.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST = path.resolve(__dirname, '..');
const EXEMPT = new Set(['bench', 'stress']);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!(dir === TEST && EXEMPT.has(name))) out.push(...files(p));
    } else if (/\.(test|e2e)\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** A duration measured with the clock and then compared, or a sleep standing in for a wait. */
const CLOCK_RULES: [string, RegExp][] = [
  ['a measured duration compared with a threshold', /(Date\.now\(\)|performance\.now\(\))\s*-\s*\w+\)\s*\.toBeLessThan/],
  ['a duration variable compared with a threshold', /expect\(\s*[\w.!]*(\bms|Ms|[eE]lapsed|[dD]uration)\s*\)\s*\.toBeLessThan/],
  ['a timestamp difference compared with a threshold', /expect\(\s*Date\.parse\([^)]*\)\s*-\s*\w+\s*\)\s*\.toBeLessThan/],
  ['a fixed sleep in a browser test (wait for a state instead)', /\.waitForTimeout\(/],
];

export function clockViolations(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [what, re] of CLOCK_RULES) if (re.test(line)) found.push(`${i + 1}: ${what}: ${line.trim()}`);
  });
  return found;
}

describe('tests never race the clock', () => {
  it('the rules catch each kind of clock assertion', () => {
    // the samples are spelled in pieces, so this file holds no line the rules (or a grep) would flag
    const lt = '.toBeLess' + 'Than';
    expect(clockViolations(`expect(Date.now() - t0)${lt}(5_000);`)).toHaveLength(1);
    expect(clockViolations(`expect(r.ms)${lt}(5_000);`)).toHaveLength(1);
    expect(clockViolations(`expect(Date.parse(g.lastRestoreAt!) - exitedAt)${lt}(250);`)).toHaveLength(1);
    expect(clockViolations('await page.waitFor' + 'Timeout(200);')).toHaveLength(1);
    expect(clockViolations(`expect(reads.length)${lt}OrEqual(31);`)).toEqual([]);
  });

  it('no test file asserts a wall-clock threshold or sleeps for a state', () => {
    const found: Record<string, string[]> = {};
    for (const f of files(TEST)) {
      const v = clockViolations(readFileSync(f, 'utf8'));
      if (v.length) found[path.relative(TEST, f)] = v;
    }
    expect(found).toEqual({});
  });
});
