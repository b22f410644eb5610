import { describe, expect, it } from 'vitest';
import { runReplayKillTrials } from '../../stress/kill-replay';
import { s3Enabled } from '../../support/s3';

describe.skipIf(!s3Enabled())('replay survives SIGKILL and resumes', () => {
  it('20 kill-and-resume trials at concurrency 8: every chunk exactly one object under its planned key, nothing overwritten, nothing lost', async () => {
    const r = await runReplayKillTrials(20, { concurrency: 8 });
    expect(r.failures).toEqual([]);
    expect(r.interrupted).toBeGreaterThan(0);
  }, 240_000);
});
