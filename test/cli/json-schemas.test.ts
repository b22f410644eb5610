/**
 * The published JSON schemas (docs/*.schema.json, generated from shared/json-schemas/) are
 * current, and what the CLI really prints conforms to them — checked with ajv against the
 * committed files and with the zod schemas — on the real Fluent Bit snapshots: diagnose, every
 * offline repair command (dry run, apply, refused, bad usage), undo, --plan-out + apply, report,
 * and the error document. The commands that need the bucket: json-schemas-live.test.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JSON_DOCUMENTS, jsonSchemaOf } from '../../shared/json-schemas';
import { readPlanFile } from '../../electron/cli/commands/plan-file';
import { extractFixture, FIXTURES, type Extracted } from '../support/fixtures';
import { cliJson, expectConforms, expectRejected, ROOT, validatorOf } from '../support/json-schemas';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const f = (scenario: string, file: string) => path.join(FIXTURES, scenario, file);
const IR = ['--config', f('index-reset', 'fluent-bit.conf'), '--listing', f('index-reset', 's3-objects-after-run2.json')];
const CRASH = ['--config', f('crash-during-run', 'fluent-bit.conf'), '--listing', f('crash-during-run', 's3-objects-after-crash.json')];

let fxs: Extracted[] = [];
afterEach(() => {
  for (const fx of fxs) fx.cleanup();
  fxs = [];
});
function fixture(scenario: string, tar: string, bucket: string): Extracted {
  const fx = extractFixture(scenario, tar, bucket);
  fxs.push(fx);
  return fx;
}

describe('docs/*.schema.json', () => {
  it.each(Object.keys(JSON_DOCUMENTS) as (keyof typeof JSON_DOCUMENTS)[])('%s: its docs/*.schema.json is current (npm run schema)', (name) => {
    const doc = JSON_DOCUMENTS[name];
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'docs', doc.file), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(jsonSchemaOf(doc))));
  });

  it('every docs/*.schema.json is a listed document, and each compiles in ajv strict mode', () => {
    const files = readdirSync(path.join(ROOT, 'docs')).filter((n) => n.endsWith('.schema.json'));
    expect(files.sort()).toEqual(
      Object.values(JSON_DOCUMENTS)
        .map((d) => d.file)
        .sort(),
    );
    for (const name of Object.keys(JSON_DOCUMENTS) as (keyof typeof JSON_DOCUMENTS)[]) expect(typeof validatorOf(name)).toBe('function');
  });
});

describe('diagnose --json', { timeout: 120_000 }, () => {
  it('index-reset after run 2 with its listing: safe next index 12, findings with commands (exit 4)', async () => {
    const fx = fixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const r = await cliJson(['diagnose', fx.storeDir, ...IR, '--json']);
    expect(r.code).toBe(4);
    expectConforms('diagnose', r.json);
    const d = r.json as Json;
    expect(d.outputs[0]).toMatchObject({ safeNextIndex: 12, lowerBoundNextIndex: 12, indexEvidence: { coverage: 'complete' } });
    const missing = d.outputs[0].findings.find((x: Json) => x.code === 'INDEX_FILE_MISSING');
    expect(missing.next[0].request).toEqual({ name: 'repair.plan', input: { action: 'repair-index', outputId: 0 } });
    expect(missing.commands[0]).toMatch(/^store-doctor repair-index .* --apply$/);

    // the schema can fail: a number where null or an integer belongs, an unknown finding code
    expectRejected('diagnose', { ...d, outputs: [{ ...d.outputs[0], safeNextIndex: '12' }] });
    expectRejected('diagnose', { ...d, storeFindings: [{ ...missing, code: 'NOT_A_CODE' }] });
  });

  it('without bucket evidence safeNextIndex is null; crash-during-run, multipart-inflight and a config with warnings conform', async () => {
    const backlog = fixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz', 'fb-backlog2');
    const crash = fixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const mp = fixture('multipart-inflight', 'store-after-crash.tar.gz', 'fb-multipart');
    const conf = path.join(crash.dir, 'warn.conf');
    writeFileSync(conf, readFileSync(f('crash-during-run', 'fluent-bit.conf'), 'utf8').replace(/(\[OUTPUT\]\n)/, '$1    tls.vhost ${SD_SCHEMA_TEST_UNSET}\n'));
    const [none, withListing, multipart, warned] = await Promise.all([
      cliJson(['diagnose', backlog.storeDir, '--config', f('buffered-backlog-no-ordering', 'fluent-bit.conf'), '--json']),
      cliJson(['diagnose', crash.storeDir, ...CRASH, '--json']),
      cliJson([
        'diagnose',
        mp.storeDir,
        '--config',
        f('multipart-inflight', 'fluent-bit.conf'),
        '--listing',
        f('multipart-inflight', 's3api-list-objects-v2-after-crash.json'),
        '--multipart',
        f('multipart-inflight', 's3api-list-multipart-uploads-after-crash.json'),
        '--json',
      ]),
      cliJson(['diagnose', crash.storeDir, '--config', conf, '--json']),
    ]);
    for (const r of [none, withListing, multipart, warned]) expectConforms('diagnose', r.json);
    expect((none.json as Json).outputs[0]).toMatchObject({ safeNextIndex: null, indexEvidence: { coverage: 'none' } });
    expect((withListing.json as Json).outputs[0].safeNextIndex).toBe(6);
    expect((multipart.json as Json).checks.outputs[0].multipart).toBe(true);
    expect((multipart.json as Json).outputs[0].findings.map((x: Json) => x.code)).toContain('MULTIPART_PENDING');
    expect((warned.json as Json).configWarnings).toEqual([expect.objectContaining({ message: expect.stringMatching(/SD_SCHEMA_TEST_UNSET/) })]);
  });
});

describe('repair commands --json (offline)', { timeout: 180_000 }, () => {
  it('repair-index: dry run + --plan-out, --apply, undo, apply <plan.json>; refused and bad usage', async () => {
    const fx = fixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const planFile = path.join(fx.dir, 'plan.json');
    const dry = await cliJson(['repair-index', fx.storeDir, ...IR, '--json', '--plan-out', planFile]);
    expect(dry.code).toBe(0);
    expectConforms('repair', dry.json);
    const plan = (dry.json as Json).plan;
    expect(plan).toMatchObject({ action: 'repair-index', details: { kind: 'index', value: 12 }, confirm: 'fb-index-reset', forced: false });
    expect(plan.basis.files.length).toBeGreaterThan(0);

    // the plan file: the documented shape, and what `apply` reads
    const saved = JSON.parse(readFileSync(planFile, 'utf8'));
    expectConforms('planFile', saved);
    expect((await readPlanFile(planFile)).plan).toEqual(saved.plan);
    expectRejected('planFile', { ...saved, format: 'store-doctor-plan/0' });

    const app = await cliJson(['repair-index', fx.storeDir, ...IR, '--apply', '--json']);
    expect(app.code).toBe(0);
    expectConforms('repair', app.json);
    expect((app.json as Json).result).toMatchObject({ applied: true, verified: true, storeUpdate: [{ seqIndex: [{ value: 12 }] }] });

    const undoDry = await cliJson(['undo', fx.storeDir, '--json']);
    // the undo brings the reset back below the listed index (refused, exit 5, unless --force: issue 18)
    expect(undoDry.code).toBe(5);
    expect((undoDry.json as Json).plan.details.atRisk[0]).toMatchObject({ outputId: 0, restored: null, highestIndex: 11 });
    const undo = await cliJson(['undo', fx.storeDir, '--apply', '--force', '--json']);
    expect(undo.code).toBe(0);
    for (const r of [undoDry, undo]) expectConforms('repair', r.json);
    expect((undo.json as Json).plan.details.kind).toBe('undo');

    // the store is as it was planned: the saved plan applies
    const applied = await cliJson(['apply', planFile, '--json']);
    expect(applied.code).toBe(0);
    expectConforms('repair', applied.json);
    expect(applied.json).toMatchObject({ dryRun: false, result: { applied: true, verified: true } });
    // ... once: now it is stale (exit 5, no plan)
    const stale = await cliJson(['apply', planFile, '--json']);
    expect(stale.code).toBe(5);
    expectConforms('repair', stale.json);
    expectConforms('error', stale.json);
    expect(stale.json).toEqual({ dryRun: false, error: { exitCode: 5, message: expect.stringMatching(/stale/) } });

    const forced = await cliJson(['repair-index', fx.storeDir, ...IR, '--value', '5', '--force', '--json']);
    expect(forced.code).toBe(0);
    expectConforms('repair', forced.json);
    expect(forced.json).toMatchObject({ dryRun: true, plan: { forced: true, refusals: [{ forceable: true }] } });
    const low = await cliJson(['repair-index', fx.storeDir, ...IR, '--value', '5', '--apply', '--json']);
    expect(low.code).toBe(5);
    expectConforms('repair', low.json);
    expect(low.json).toMatchObject({ dryRun: false, plan: { forced: false, refusals: [{ forceable: true }] }, error: { exitCode: 5 } });

    const usage = await cliJson(['repair-index', fx.storeDir, ...IR, '--value', 'abc', '--json']);
    expect(usage.code).toBe(2);
    expect(usage.json).toEqual({ error: { exitCode: 2, message: '--value abc: not a non-negative integer' } });
    expectConforms('repair', usage.json);
    expectConforms('error', usage.json);

    // the schema can fail
    expectRejected('repair', { ...(dry.json as Json), dryRun: 'yes' });
    expectRejected('repair', { dryRun: true, plan: { ...plan, details: { ...plan.details, kind: 'bogus' } } });
    expectRejected('repair', { dryRun: false, plan, result: { ...(app.json as Json).result, undoId: 7 } });
  });

  it('protect-index (marker, shadow) and restore-index plans and results conform', async () => {
    const fx = fixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const conf = ['--config', f('crash-during-run', 'fluent-bit.conf')];
    const shadow = path.join(fx.dir, 'shadow');
    const marker = await cliJson(['protect-index', fx.storeDir, ...conf, '--method', 'marker', '--json']);
    const shadowApp = await cliJson(['protect-index', fx.storeDir, ...conf, '--method', 'shadow', '--shadow-dir', shadow, '--apply', '--json']);
    const restore = await cliJson(['restore-index', fx.storeDir, ...CRASH, '--shadow-dir', shadow, '--json']);
    for (const r of [marker, shadowApp, restore]) {
      expect(r.code).toBe(0);
      expectConforms('repair', r.json);
    }
    expect((marker.json as Json).plan.details.kind).toBe('protect-marker');
    expect((shadowApp.json as Json).plan.details).toMatchObject({ kind: 'protect-shadow', writes: [{ id: 0, value: 6 }] });
    expect((shadowApp.json as Json).result.applied).toBe(true);
    expect((restore.json as Json).plan.details.kind).toBe('restore');
  });
});

describe('report --format json', { timeout: 120_000 }, () => {
  it('with config and listing, and without either, conforms (report = scan --json shape, diagnosis, config, evidence)', async () => {
    const fx = fixture('index-reset', 'store-after-run2.tar.gz', 'fb-index-reset');
    const [full, bare] = await Promise.all([cliJson(['report', fx.storeDir, ...IR, '--format', 'json']), cliJson(['report', fx.storeDir, '--format', 'json'])]);
    for (const r of [full, bare]) {
      expect(r.code).toBe(0);
      expectConforms('report', r.json);
      expectConforms('scan', (r.json as Json).report);
    }
    expect(full.json).toMatchObject({ tool: 'store-doctor', config: { outputs: [{ s3: { bucket: 'fb-index-reset' } }] }, evidence: { source: 'offline' } });
    expect((full.json as Json).diagnosis.outputs[0].safeNextIndex).toBe(12);
    expect(bare.json).toMatchObject({ config: null, evidence: null });
    expectRejected('report', { ...(full.json as Json), tool: 'other' });
  });
});

describe('the error document', { timeout: 60_000 }, () => {
  it('every command prints it with --json when it fails', async () => {
    const gone = path.join(ROOT, 'test/fixtures/no-such-store');
    const runs = await Promise.all([
      cliJson(['diagnose', gone, '--json']),
      cliJson(['scan', gone, '--json']),
      cliJson(['report', gone, '--format', 'json']),
      cliJson(['diagnose', gone, '--json', '--no-such-flag']),
      cliJson(['apply', gone, '--json']),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(2);
      expectConforms('error', r.json);
      expect(Object.keys(r.json as Json)).toEqual(['error']);
    }
    expectRejected('error', { error: { exitCode: 0, message: 'ok' } });
  });
});
