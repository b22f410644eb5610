/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * One rule picks the output an action works on: the session (its confirm phrase, the plan's
 * output, the S3 settings used at apply) and the action's planner read the same registry flag.
 * Replay prefers the `$INDEX` output when a store has one with `$INDEX` and one without; the
 * session once picked none there (a plan with no confirm phrase and no output's S3 settings).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import type { Engine } from '../../../shared/contract';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../../support/fixtures';
import { requester } from '../../support/engine';

const CONFIG = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const LISTING = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run2.json');
const BUCKET = 'fb-index-reset';

let fx: Extracted | null = null;
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.dispose();
  engine = null;
  fx?.cleanup();
  fx = null;
});

describe('replay on a store with an $INDEX output and one without', () => {
  it('the session and the planner take the same output: the $INDEX one', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
    const conf = path.join(tempDir('sd-replay-target-').dir, 'two-outputs.conf');
    const second = [
      '',
      '[OUTPUT]',
      '    name             s3',
      '    alias            by-uuid',
      '    match            app.*',
      `    bucket           ${BUCKET}`,
      '    region           us-east-1',
      '    store_dir        /data/index-reset/store',
      '    s3_key_format    /$TAG/%Y/%m/%d/%H_%M_%S-$UUID',
      '',
    ].join('\n');
    fs.writeFileSync(conf, fs.readFileSync(CONFIG, 'utf8') + second);
    engine = createEngine({ door: 'host', stateDir: tempDir('sd-replay-target-state-').dir, watch: false });
    const ok = requester(engine);
    const { storeId } = await ok('store.open', { path: fx.storeDir });
    const config = await ok('config.load', { storeId, path: conf });
    expect(config.outputs.map((o: any) => o.s3.hasIndex)).toEqual([true, false]);
    await ok('evidence.importOffline', { storeId, documents: [{ name: 'listing.json', text: fs.readFileSync(LISTING, 'utf8') }] });

    const plan = await ok('repair.plan', { storeId, action: 'replay' });
    expect(plan.details.outputId).toBe(config.outputs[0].id); // the planner's output
    expect(plan.confirm).toBe(`${BUCKET}/${config.outputs[0].displayName}`); // the session's: the same one
  });
});
