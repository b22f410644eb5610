/**
 * Issue 9 item 14 (first half): a listing file that is not `aws s3api` output — `null`, `[]`,
 * `{}`, a bare value — is rejected with an error naming the file. Today `null` and `[]` were taken
 * as a complete, empty bucket listing, and repair then planned 0.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOfflineEvidence, OfflineEvidenceError, parseOfflineEvidence } from '../../../electron/engine/s3';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-listing-shape-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('listing files that are not aws s3api output', () => {
  const cases: [string, string][] = [
    ['null', 'null'],
    ['an empty array', '[]'],
    ['an empty object', '{}'],
    ['a number', '42'],
    ['a string', '"Contents"'],
    ['true', 'true'],
    ['an array of nulls', '[null, null]'],
    ['null pages', 'null\nnull\n'],
  ];
  for (const role of ['listing', 'versions', 'multipart'] as const) {
    for (const [what, text] of cases) {
      it(`--${role} holding ${what} is rejected, naming the file`, async () => {
        const file = path.join(dir, `${role}-${what.replace(/\W+/g, '-')}.json`);
        fs.writeFileSync(file, text);
        const err = await loadOfflineEvidence({ [role]: [file] }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err, `${role} ${what}`).toBeInstanceOf(OfflineEvidenceError);
        expect((err as Error).message.startsWith(`${file}: `)).toBe(true);
        expect((err as Error).message).toMatch(/not a listing|not valid JSON/);
      });
    }
  }

  it('says why null and [] are refused (an empty bucket cannot be told from a wrong --query)', () => {
    expect(() => parseOfflineEvidence([{ name: 'l.json', text: 'null', kind: 'listing' }])).toThrow(/l\.json: .*null.*--query/);
    expect(() => parseOfflineEvidence([{ name: 'l.json', text: '[]', kind: 'listing' }])).toThrow(/l\.json: .*empty array.*--query/);
  });

  it('still reads a real empty listing and a non-empty --query Contents array', () => {
    const empty = parseOfflineEvidence([{ name: 'e.json', text: '{ "KeyCount": 0, "Name": "b", "Prefix": "" }', kind: 'listing' }]);
    expect(empty).toMatchObject({ bucket: 'b', objects: [], complete: true });
    const arr = parseOfflineEvidence([{ name: 'a.json', text: JSON.stringify([{ Key: 'k/0', Size: 1 }]), kind: 'listing' }]);
    expect(arr.objects.map((o) => o.key)).toEqual(['k/0']);
  });
});
