/** The collision analysis worked through: the first key the next start writes, per tag, and whether the bucket holds it. */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../electron/engine/diagnose';
import { parseFluentBitConfig } from '../../../electron/engine/fluentbit';
import { chunk, evidence, report, root, seq, stream } from './build-report';

const conf = (fmt: string) =>
  parseFluentBitConfig(`[OUTPUT]\n    name s3\n    bucket b\n    s3_key_format ${fmt}\n`, { fileName: '/etc/fb/fluent-bit.conf', env: {} });
const keys: [string, string][] = [0, 1, 2].map((i) => [`app.web/2026/11/29/${i}`, `2026-11-29T1${i}:00:00Z`]);

describe('nextKeys', () => {
  it('the missing index file starts at 0: the day partition already holds app.web/…/0, the next day is free', async () => {
    const config = await conf('/$TAG/%Y/%m/%d/$INDEX');
    const d = diagnose({ report: report(root('b')), config, evidence: { 0: evidence(keys) }, at: new Date('2026-11-29T20:00:00Z') });
    expect(d.outputs[0].nextKeys).toEqual([{ tag: 'app.web', index: 0, key: 'app.web/2026/11/29/0', state: 'exists' }]);
    expect(d.outputs[0].timeline[0]).toMatchObject({ key: 'app.web/2026/11/29/0', tag: 'app.web', lastModified: '2026-11-29T10:00:00.000Z' });
    const next = diagnose({ report: report(root('b')), config, evidence: { 0: evidence(keys) }, at: new Date('2026-11-30T00:00:05Z') });
    expect(next.outputs[0].nextKeys).toEqual([{ tag: 'app.web', index: 0, key: 'app.web/2026/11/30/0', state: 'free' }]);
  });

  it('buffered tags come first and the persisted index is used; no evidence: unknown; $UUID or no $INDEX: none', async () => {
    const config = await conf('/$TAG/%Y/%m/%d/$INDEX');
    const r = report(
      root('b', { seqIndex: [seq(0, 2)], streams: [stream('2026-11-29T10:00:00', 'data', [chunk('2026-11-29T10:00:00', 'c1', { tag: 'app.db' })])] }),
    );
    const d = diagnose({ report: r, config, evidence: { 0: evidence(keys) }, at: new Date('2026-11-29T20:00:00Z') });
    expect(d.outputs[0].nextKeys).toEqual([
      { tag: 'app.db', index: 2, key: 'app.db/2026/11/29/2', state: 'free' },
      { tag: 'app.web', index: 2, key: 'app.web/2026/11/29/2', state: 'exists' },
    ]);
    expect(diagnose({ report: r, config, evidence: {}, at: new Date('2026-11-29T20:00:00Z') }).outputs[0].nextKeys?.map((k) => k.state)).toEqual(['unknown']);
    expect(diagnose({ report: r, config: await conf('/$TAG/$UUID-$INDEX'), evidence: {} }).outputs[0].nextKeys).toBeUndefined();
    expect(diagnose({ report: r, config: await conf('/$TAG/%Y/%m/%d/%H'), evidence: {} }).outputs[0].nextKeys).toBeUndefined();
  });
});
