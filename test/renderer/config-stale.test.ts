/**
 * A diagnosis made without the config says nothing true once a config is loaded: loadConfig
 * clears it at once, so no view (the Overview checklist) shows the old rows while the new
 * diagnosis runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../renderer/src/actions/store';
import { setClient } from '../../renderer/src/client';
import { useEvidence } from '../../renderer/src/state/evidence';
import { useSession } from '../../renderer/src/state/session';
import { fakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import type { Diagnosis, FluentBitConfig } from '../../shared/model';
import type { OpenedStore } from '../../shared/contract';

afterEach(() => {
  useEvidence.getState().setDiagnosis(null);
  useSession.getState().close();
});

describe('loadConfig', () => {
  it('drops the diagnosis made without the config until the new one arrives', async () => {
    const report = syntheticReport(5, 1, 'bucket-a');
    const before = syntheticDiagnosis('bucket-a');
    const after: Diagnosis = { ...before };
    let finish: (d: Diagnosis) => void = () => undefined;
    const pending = new Promise<Diagnosis>((r) => (finish = r));
    const config = { outputs: [], warnings: [], files: [] } as unknown as FluentBitConfig;
    setClient(fakeClient({ 'config.load': () => config, 'diagnose.run': () => pending }));
    useSession.getState().setOpened({ storeId: 's1', path: '/x', report } as unknown as OpenedStore);
    useEvidence.getState().setDiagnosis(before);
    const loading = loadConfig({ path: '/etc/fluent-bit.conf' });
    await new Promise((r) => setTimeout(r, 0));
    expect(useEvidence.getState().diagnosis).toBeNull();
    finish(after);
    await expect(loading).resolves.toBe(true);
    expect(useEvidence.getState().diagnosis).toBe(after);
  });
});
