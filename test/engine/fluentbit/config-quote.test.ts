/**
 * Issue 9 item 4: a config error names the file, the line and at most a key name — never the
 * content of a line. `@INCLUDE /etc/shadow` (in a config from a support bundle, read as root)
 * must not print a line of it, whatever the reader's error is.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadFluentBitConfig } from '../../../electron/engine/fluentbit';

const SECRET = 'SECRETHASH';
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-cfg-quote-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function errorOf(main: string, included: string, includedName = 'secret'): Promise<{ err: ConfigError; text: string }> {
  const sub = fs.mkdtempSync(path.join(dir, 'c-'));
  fs.writeFileSync(path.join(sub, includedName), included, { mode: 0o600 });
  fs.writeFileSync(path.join(sub, main.endsWith('.yaml') ? 'fluent-bit.yaml' : 'fluent-bit.conf'), main.replace(/\.yaml$/, ''));
  const file = path.join(sub, main.endsWith('.yaml') ? 'fluent-bit.yaml' : 'fluent-bit.conf');
  const err = await loadFluentBitConfig(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  const e = err as ConfigError;
  return { err: e, text: `${e.message} ${e.file} ${e.line}` };
}

describe('config errors never quote a line of the file', () => {
  const classic: [string, string, RegExp][] = [
    ['an /etc/shadow line (entry outside of any section)', `root:$6$${SECRET}:19000:0:99999:7:::\n`, /secret:1: entry outside of any section/],
    ['a line with a space outside of any section', `password ${SECRET}\n`, /secret:1: entry outside of any section \(key "password"\)/],
    ['an invalid section header', `[${SECRET}\n`, /secret:1: invalid section header/],
    ['an unindented entry', `[OUTPUT]\nsecret_key ${SECRET}\n`, /secret:2: invalid indentation level/],
    ['a key without a value', `[OUTPUT]\n    ${SECRET}:x\n`, /secret:2: undefined value for a key/],
    ['a bad @SET', `@SET ${SECRET}\n`, /secret:1: @SET needs KEY=VALUE/],
    ['an unknown directive', `@${SECRET}:/x y\n`, /secret:1: unknown directive/],
  ];
  for (const [what, body, re] of classic) {
    it(`classic @INCLUDE: ${what}`, async () => {
      const { err, text } = await errorOf('@INCLUDE secret\n', body);
      expect(err.message).toMatch(re);
      expect(text).not.toContain(SECRET);
      expect(err.line).not.toBeNull();
    });
  }

  it('a lone token is the whole line: never quoted, even when it looks like a key', async () => {
    const { err } = await errorOf('@INCLUDE secret\n', '[OUTPUT]\n    AKIAIOSFODNN7EXAMPLE\n');
    expect(err.message).toMatch(/secret:2: undefined value for a key/);
    expect(err.message).not.toContain('AKIA');
  });

  const yaml: [string, string][] = [
    ['an unexpected scalar', `a: b\n${SECRET}2\n`],
    ['a bad YAML version', `%YAML ${SECRET}\n---\na: 1\n`],
    ['an invalid escape', `a: "x\\q${SECRET}"\n`],
    ['an unclosed flow map', `a: {${SECRET}: 1, ${SECRET}2\n`],
    ['a shadow line', `root:$6$${SECRET}:19000:0:99999:7:::\nbin:*:19000\n`],
  ];
  for (const [what, body] of yaml) {
    it(`YAML includes: ${what}`, async () => {
      const { err, text } = await errorOf('includes:\n  - secret.yaml\n.yaml', body, 'secret.yaml');
      expect(err.file).toMatch(/secret\.yaml$/);
      expect(text).not.toContain(SECRET);
    });
  }

  it('warnings name keys only when they look like keys', async () => {
    const sub = fs.mkdtempSync(path.join(dir, 'w-'));
    fs.writeFileSync(path.join(sub, 'secret'), `[${SECRET}:x]\n`);
    fs.writeFileSync(path.join(sub, 'fluent-bit.conf'), '@INCLUDE secret\n[OUTPUT]\n    name stdout\n');
    const cfg = await loadFluentBitConfig(path.join(sub, 'fluent-bit.conf'));
    expect(JSON.stringify(cfg.warnings)).not.toContain(SECRET);
    expect(cfg.warnings.some((w) => /unknown section/.test(w.message))).toBe(true);
  });
});
