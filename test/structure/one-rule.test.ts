/**
 * Issue 19 item 4: rules written once. Every apply result starts from repair/outcome/result.ts
 * startResult (one rule for `verified`: unverified until the action's read-back says so) — no
 * action builds its own result literal; and which refusals block is shared/refusals.ts
 * blockingRefusals, for the engine, the CLI and the app — no door filters `forceable` itself;
 * and how a forced plan says what the force overrides is repair/outcome/result.ts finishPlan (the
 * write frame says it again right before writing) — no planner words or places it itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockingRefusals } from '../../shared/refusals';
import { sourceFiles } from './source-files';

const ROOT = path.resolve(__dirname, '../..');

const rel = (f: string) => path.relative(ROOT, f);

/** A hand-built RepairResult: an object literal with `applied:` and `undoId:` fields. */
export const resultLiteral = (text: string) => /\{[^{}]*\bapplied:\s*(?:false|true)[^{}]*\bundoId:/.test(text);
/** A hand-written blocking rule: a refusal filter on `forceable` combined with a force flag. */
export const forceRule = (text: string) => /!\s*r\.forceable\s*\|\|\s*!/.test(text);
/** A call of forcedWarning (the words of a forced override). */
export const forcedCall = (text: string) => /(?<![\w.])forcedWarning\s*\(/.test(text);

describe('rules written once', () => {
  it('every apply result starts from startResult', () => {
    const bad = sourceFiles(path.join(ROOT, 'electron/engine/repair'))
      .filter((f) => !f.endsWith(path.join('outcome', 'result.ts')))
      .filter((f) => resultLiteral(readFileSync(f, 'utf8')))
      .map(rel);
    expect(bad).toEqual([]);
  });

  it('which refusals block is decided by shared/refusals.ts alone', () => {
    const bad = ['electron', 'shared', 'renderer/src']
      .flatMap((d) => sourceFiles(path.join(ROOT, d)))
      .filter((f) => !f.endsWith(path.join('shared', 'refusals.ts')))
      .filter((f) => forceRule(readFileSync(f, 'utf8')))
      .map(rel);
    expect(bad).toEqual([]);
  });

  it('the forced warning is placed by finishPlan (plans) and the write frame (right before writing) alone', () => {
    const allowed = [path.join('repair', 'outcome') + path.sep, path.join('repair', 'preconditions', 'write-frame.ts')];
    const bad = sourceFiles(path.join(ROOT, 'electron'))
      .filter((f) => !allowed.some((a) => f.includes(a)))
      .filter((f) => forcedCall(readFileSync(f, 'utf8')))
      .map(rel);
    expect(bad).toEqual([]);
  });

  it('the checks see what they look for, and the rule is the documented one', () => {
    expect(forcedCall(`const forced = input.force ? forcedWarning(plan.refusals) : null;`)).toBe(true);
    expect(forcedCall(`return finishPlan(plan, input.force);`)).toBe(false);
    expect(resultLiteral(`const r = { action: 'x', applied: false, summary: s, steps: [], undoId: null, verified: false }`)).toBe(true);
    expect(resultLiteral(`const r = startResult(plan)`)).toBe(false);
    expect(forceRule(`plan.refusals.filter((r) => !r.forceable || !force)`)).toBe(true);
    const refusals = [
      { reason: 'a', forceable: true },
      { reason: 'b', forceable: false },
    ];
    expect(blockingRefusals(refusals, false).map((r) => r.reason)).toEqual(['a', 'b']);
    expect(blockingRefusals(refusals, true).map((r) => r.reason)).toEqual(['b']);
    expect(blockingRefusals(refusals, undefined).map((r) => r.reason)).toEqual(['a', 'b']);
  });
});
