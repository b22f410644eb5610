/**
 * The house's structure rules, checked on the sources: no import cycles (runtime imports, not
 * `import type`); the renderer never imports Node or the engine; the CLI reaches the engine only
 * through the session (no planner or repair code of its own).
 */
import { readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

const ROOT = path.resolve(__dirname, '../..');
const DIRS = ['electron', 'shared', 'renderer/src'];

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d)))) {
    const text = readFileSync(f, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const r = resolve(f, m[1]);
      if (r) deps.push(r);
    }
    g.set(f, deps);
  }
  return g;
}

function cycles(g: Map<string, string[]>, name = (p: string) => path.relative(ROOT, p)): string[][] {
  const out: string[][] = [];
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 1);
    stack.push(n);
    for (const d of g.get(n) ?? []) {
      if (state.get(d) === 1) out.push([...stack.slice(stack.indexOf(d)), d].map(name));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of g.keys()) if (!state.has(n)) visit(n);
  return out;
}

describe('source structure', () => {
  const g = graph();

  it('has no import cycles', () => {
    expect(cycles(g)).toEqual([]);
  });

  it('has no import cycle between engine folders (runtime imports; a folder is one room of the engine)', () => {
    const ENGINE = path.join(ROOT, 'electron', 'engine') + path.sep;
    const folderOf = (f: string) => (f.startsWith(ENGINE) && f.slice(ENGINE.length).includes(path.sep) ? f.slice(ENGINE.length).split(path.sep)[0] : null);
    const folders = new Map<string, string[]>();
    const why = new Map<string, string>();
    for (const [f, deps] of g) {
      const from = folderOf(f);
      if (!from) continue;
      for (const d of deps) {
        const to = folderOf(d);
        if (!to || to === from) continue;
        folders.set(from, [...new Set([...(folders.get(from) ?? []), to])]);
        if (!why.has(`${from}>${to}`)) why.set(`${from}>${to}`, `${path.relative(ROOT, f)} → ${path.relative(ROOT, d)}`);
      }
    }
    const found = cycles(folders, (x) => x).map((c) => c.map((x, i) => (i ? why.get(`${c[i - 1]}>${x}`) : x)).join(' | '));
    expect(found).toEqual([]);
  });

  it('the CLI imports no repair or diagnose internals: it reaches the disk through the engine session', () => {
    const cli = [...g.keys()].filter((f) => f.includes(`${path.sep}electron${path.sep}cli${path.sep}`));
    const bad = cli.flatMap((f) =>
      (g.get(f) ?? []).filter((d) => /electron\/engine\/(repair|diagnose)\//.test(d)).map((d) => `${path.relative(ROOT, f)} → ${path.relative(ROOT, d)}`),
    );
    expect(bad).toEqual([]);
  });
});
