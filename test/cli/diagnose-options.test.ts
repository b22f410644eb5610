/** `--at` is read in UTC (key times and collision windows are UTC), whatever the machine's zone. */
import { afterEach, describe, expect, it } from 'vitest';
import { readEvidenceOptions } from '../../electron/cli/evidence-options';

const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('--at', () => {
  it.each(['America/New_York', 'Asia/Kolkata', 'UTC'])('a time without a zone is UTC (TZ=%s)', (tz) => {
    process.env.TZ = tz;
    expect(readEvidenceOptions({ at: '2026-11-29T18:40:00' }).at).toBe('2026-11-29T18:40:00.000Z');
    expect(readEvidenceOptions({ at: '2026-11-29T18:40' }).at).toBe('2026-11-29T18:40:00.000Z');
    expect(readEvidenceOptions({ at: '2026-11-29' }).at).toBe('2026-11-29T00:00:00.000Z');
    expect(readEvidenceOptions({ at: '2026-11-29T18:40:00+02:00' }).at).toBe('2026-11-29T16:40:00.000Z');
    expect(readEvidenceOptions({ at: '2026-11-29T18:40:00Z' }).at).toBe('2026-11-29T18:40:00.000Z');
  });

  it('still rejects what is not an ISO time', () => {
    expect(() => readEvidenceOptions({ at: 'yesterday' })).toThrow(/not an ISO time/);
    expect(() => readEvidenceOptions({ at: '2026-13-40T99:00' })).toThrow(/not an ISO time/);
  });
});
