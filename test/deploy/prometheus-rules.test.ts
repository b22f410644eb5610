/**
 * deploy/prometheus/rules.yml is the one source of the alert rules: promtool accepts it, its unit
 * tests (rules.test.yml: every alert fires when it should, stays quiet when it should, with its labels
 * and the annotation that says what to run) pass, and deploy/kubernetes/prometheusrule.yaml carries
 * exactly its groups (`npm run rules` writes it).
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { promtoolBin } from '../support/prometheus-bin';
import { tempDir } from '../support/fixtures';

const ROOT = path.resolve(__dirname, '../..');
const DIR = path.join(ROOT, 'deploy/prometheus');
const run = promisify(execFile);

async function promtool(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  try {
    const r = await run(promtoolBin(), args, { cwd });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

type Rules = { groups: { name: string; rules: { alert: string; annotations: Record<string, string>; labels: Record<string, string> }[] }[] };

describe('deploy/prometheus/rules.yml', () => {
  it('promtool check rules accepts it; a broken expression is rejected', async () => {
    const ok = await promtool(['check', 'rules', 'rules.yml'], DIR);
    expect(ok.out).toContain('SUCCESS: 10 rules found');
    expect(ok.code).toBe(0);
    const t = tempDir('sd-rules-');
    try {
      writeFileSync(
        path.join(t.dir, 'rules.yml'),
        readFileSync(path.join(DIR, 'rules.yml'), 'utf8').replace('store_doctor_quarantine_chunks > 0', 'store_doctor_quarantine_chunks >'),
      );
      const bad = await promtool(['check', 'rules', 'rules.yml'], t.dir);
      expect(bad.code).not.toBe(0);
      expect(bad.out).toMatch(/parse error/);
    } finally {
      t.cleanup();
    }
  });

  it('promtool test rules: every alert is tested firing and quiet; a changed threshold fails the tests', async () => {
    const ok = await promtool(['test', 'rules', 'rules.test.yml'], DIR);
    expect(ok.out).toContain('SUCCESS');
    expect(ok.code).toBe(0);
    const rules = parse(readFileSync(path.join(DIR, 'rules.yml'), 'utf8')) as Rules;
    const tests = parse(readFileSync(path.join(DIR, 'rules.test.yml'), 'utf8')) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const cases = tests.tests.flatMap((t) => t.alert_rule_test);
    for (const r of rules.groups.flatMap((g) => g.rules)) {
      expect(
        cases.some((c) => c.alertname === r.alert && c.exp_alerts.length > 0),
        `${r.alert} fires`,
      ).toBe(true);
      expect(
        cases.some((c) => c.alertname === r.alert && c.exp_alerts.length === 0),
        `${r.alert} quiet`,
      ).toBe(true);
      expect(r.labels.severity, r.alert).toMatch(/^(critical|warning|info)$/);
      expect(r.annotations.action, `${r.alert}: what to run`).toMatch(/store-doctor|kubectl|curl/);
    }
    const t = tempDir('sd-rules-');
    try {
      cpSync(path.join(DIR, 'rules.test.yml'), path.join(t.dir, 'rules.test.yml'));
      writeFileSync(
        path.join(t.dir, 'rules.yml'),
        readFileSync(path.join(DIR, 'rules.yml'), 'utf8').replace('store_doctor_damaged_chunks > 0', 'store_doctor_damaged_chunks > 5'),
      );
      const bad = await promtool(['test', 'rules', 'rules.test.yml'], t.dir);
      expect(bad.code).not.toBe(0);
      expect(bad.out).toContain('StoreDoctorDamagedChunks');
    } finally {
      t.cleanup();
    }
  });

  it('deploy/kubernetes/prometheusrule.yaml carries exactly the groups of rules.yml', () => {
    const rules = parse(readFileSync(path.join(DIR, 'rules.yml'), 'utf8')) as Rules;
    const cr = parse(readFileSync(path.join(ROOT, 'deploy/kubernetes/prometheusrule.yaml'), 'utf8')) as { kind: string; spec: Rules };
    expect(cr.kind).toBe('PrometheusRule');
    expect(cr.spec.groups).toEqual(rules.groups);
  });
});
