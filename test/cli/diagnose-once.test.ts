/**
 * A CLI command diagnoses once: with offline evidence files (and no --live) the store is diagnosed
 * a single time, not once to learn the files' coverage and again for the result (issue 19, item 9).
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDiagnosed } from '../../electron/cli/evidence-options';
import { withSession } from '../../electron/cli/session';
import { extractFixture, FIXTURES, type Extracted } from '../support/fixtures';

const calls = vi.hoisted(() => ({ diagnose: 0 }));
vi.mock('../../electron/engine/diagnose', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../electron/engine/diagnose')>();
  return {
    ...real,
    diagnose: (...args: Parameters<typeof real.diagnose>) => {
      calls.diagnose++;
      return real.diagnose(...args);
    },
  };
});

const CONFIG = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const LISTING = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run2.json');

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

describe('openDiagnosed with offline evidence files', () => {
  it('diagnoses the store once, with the listing attached', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    calls.diagnose = 0;
    const d = await withSession((session) => openDiagnosed(session, fx!.storeDir, { config: CONFIG, listing: [LISTING] }, new AbortController().signal));
    expect(d.diagnosis.outputs[0].safeNextIndex).toBe(12);
    expect(calls.diagnose).toBe(1);
  });

  it('with --live too: when the files cover every output, nothing is listed and the one diagnosis is kept', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    calls.diagnose = 0;
    // an endpoint nothing answers on: a live listing would fail the command
    const opts = { config: CONFIG, listing: [LISTING], live: true, endpoint: 'http://127.0.0.1:9', pathStyle: true };
    const d = await withSession((session) => openDiagnosed(session, fx!.storeDir, opts, new AbortController().signal));
    expect(d.diagnosis.outputs[0].safeNextIndex).toBe(12);
    expect(calls.diagnose).toBe(1);
  });

  it('diagnoses once without evidence too', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    calls.diagnose = 0;
    const d = await withSession((session) => openDiagnosed(session, fx!.storeDir, { config: CONFIG }, new AbortController().signal));
    expect(d.diagnosis.outputs[0].safeNextIndex).toBeNull();
    expect(calls.diagnose).toBe(1);
  });

  it('a repair command (open, diagnose, repair.plan with the diagnosis time) diagnoses once in all', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    calls.diagnose = 0;
    const plan = await withSession(async (session) => {
      const d = await openDiagnosed(session, fx!.storeDir, { config: CONFIG, listing: [LISTING] }, new AbortController().signal);
      return session.call('repair.plan', { storeId: d.opened.storeId, action: 'repair-index', at: d.diagnosis.at });
    });
    expect(plan.details?.kind).toBe('index');
    expect(calls.diagnose).toBe(1);
  });
});
