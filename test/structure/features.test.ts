/**
 * The renderer is grouped by feature (issue 19, item 7): a feature folder under
 * `renderer/src/features/<name>/` holds its views, parts, slices and actions. Code outside the folder
 * (the rest of the renderer and its tests) imports the feature through its `index.ts`, or its
 * `state.ts` for the slices alone (which never pulls views or actions in, so the store actions can
 * reset a feature without an import cycle).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

const ROOT = path.resolve(__dirname, '../..');
const FEATURES = path.join(ROOT, 'renderer/src/features');
const ENTRIES = new Set(['index.ts', 'state.ts']);

const SPEC = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|vi\.mock\(\s*['"](\.[^'"]+)['"]/gm;

/** `features/<name>/<file>` an import reaches, when it reaches into a feature folder. */
function featureFile(from: string, spec: string): { feature: string; file: string } | null {
  const target = path.resolve(path.dirname(from), spec);
  const rel = path.relative(FEATURES, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [feature, ...rest] = rel.split(path.sep);
  const file = rest.length ? rest.join('/').replace(/\.tsx?$/, '') + '.ts' : 'index.ts';
  return { feature, file };
}

describe('renderer features', () => {
  it('the write flow is one feature folder with its entry points', () => {
    const names = readdirSync(path.join(FEATURES, 'repair'));
    for (const f of ['index.ts', 'state.ts', 'RepairView.tsx', 'PlanReview.tsx', 'planFlow.ts', 'actions.ts']) expect(names).toContain(f);
  });

  it('salvage and the guard are feature folders too, each with its entry points', () => {
    for (const [feature, view] of [
      ['salvage', 'SalvageReview.tsx'],
      ['guard', 'GuardView.tsx'],
    ]) {
      const names = readdirSync(path.join(FEATURES, feature));
      for (const f of ['index.ts', 'state.ts', 'actions.ts', view]) expect(names, feature).toContain(f);
    }
  });

  it('outside a feature folder, only its index.ts or state.ts is imported', () => {
    const bad: string[] = [];
    const sources = [...sourceFiles(path.join(ROOT, 'renderer/src')), ...sourceFiles(path.join(ROOT, 'test'))];
    for (const f of sources) {
      for (const m of readFileSync(f, 'utf8').matchAll(SPEC)) {
        const hit = featureFile(f, m[1] ?? m[2]);
        if (!hit) continue;
        const inside = path.relative(path.join(FEATURES, hit.feature), f);
        if (!inside.startsWith('..')) continue;
        if (!ENTRIES.has(hit.file)) bad.push(`${path.relative(ROOT, f)} -> features/${hit.feature}/${hit.file}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
