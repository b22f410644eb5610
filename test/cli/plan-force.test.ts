/**
 * Issue 17, case 10: `force` is never taken from a plan file. A saved plan reviewed as refused
 * (an index below the safe value), with `"force": true` added to its request by hand, is refused
 * by `apply`; only `apply --force` on the command line applies it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractFixture, FIXTURES, type Extracted } from '../support/fixtures';
import { cliJson } from '../support/json-schemas';

const f = (file: string) => path.join(FIXTURES, 'index-reset', file);
const IR = ['--config', f('fluent-bit.conf'), '--listing', f('s3-objects-after-run2.json')];
let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

describe('apply <plan.json> and force (issue 17 case 10)', { timeout: 180_000 }, () => {
  it('a refused plan with "force": true edited into its request is refused; apply --force applies it', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const seq = path.join(fx.root, 'sequence', 'index_metadata', 'seq_index_0');
    const planFile = path.join(fx.dir, 'plan.json');
    const dry = await cliJson(['repair-index', fx.storeDir, ...IR, '--value', '5', '--json', '--plan-out', planFile]);
    expect(dry.json).toMatchObject({ plan: { forced: false, refusals: [expect.objectContaining({ forceable: true })] } });

    const doc = JSON.parse(readFileSync(planFile, 'utf8'));
    doc.request.force = true;
    doc.plan.forced = true;
    writeFileSync(planFile, JSON.stringify(doc, null, 2));
    const edited = await cliJson(['apply', planFile, '--json']);
    expect(edited.code).toBe(5);
    expect(edited.json).toMatchObject({ error: { exitCode: 5, message: expect.stringMatching(/below|refus|force/i) } });
    expect(existsSync(seq)).toBe(false);

    const forced = await cliJson(['apply', planFile, '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(forced.json).toMatchObject({ result: { applied: true, verified: true } });
    expect(readFileSync(seq, 'latin1')).toBe('5');
  });
});
