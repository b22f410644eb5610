/**
 * Issue 9 item 3: control characters from the store (tags, file names, keys, paths) never reach
 * the terminal or the Markdown report as such: OSC titles, ESC[2J, OSC-8 links, C1 CSI, bidi
 * overrides and raw newlines are shown escaped in every human output. JSON stays exact.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeField, escapeOutput } from '../../shared/escape';
import { exportMarkdown } from '../../electron/engine/session/export';
import { diagnoseStore as runDiagnosis } from '../support/diagnose';
import { generateStore, jsonLines } from '../fixtures/generate';

const ROOT = path.join(__dirname, '../..');
const OSC_TITLE = '\x1b]0;PWNED\x07';
const CLEAR = '\x1b[2J';
const OSC8 = '\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07';
/** A file name cannot hold a slash. */
const OSC8_NAME = '\x1b]8;;evil\x07click\x1b]8;;\x07';
const C1_CSI = '\u009b2J';
const BIDI = '\u202egnp.exe';
const FAKE = '\nFAKE LINE';

let tmp: string;
let store: string;
let root: string;
let listing: string;
let config: string;

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { encoding: 'utf8', cwd: ROOT, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** No terminal control, no bidi override, and no line that a raw newline in a field would fake. */
function expectClean(text: string, what: string): void {
  expect(text, what).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  expect(
    text.split('\n').some((l) => l.startsWith('FAKE LINE')),
    `${what}: a field's newline started a line`,
  ).toBe(false);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-esc-'));
  // Even the folder the store is in carries a hostile name: every path printed holds it.
  const parent = path.join(tmp, `evil${CLEAR}${C1_CSI}`); // no newline: the config names this path
  const tag = `app${OSC_TITLE}${BIDI}`;
  const g = await generateStore(path.join(parent, 'store'), {
    roots: [
      {
        bucket: 'b',
        streams: [
          {
            name: '2026-01-01T00:00:00',
            chunks: [
              { name: `1-ok${OSC8_NAME}`, meta: `${tag}${OSC8}`, content: jsonLines(2) },
              { name: `2-bad${CLEAR}${FAKE}`, meta: tag, content: jsonLines(1), mutate: (b) => Buffer.concat([Buffer.from([0, 0]), b.subarray(2)]) },
            ],
          },
          {
            name: 'multipart_upload_metadata',
            chunks: [{ name: '9-9', meta: `/logs/${C1_CSI}key\nupload-${OSC_TITLE}`, content: 'part_number=1\tetag=x\n' }],
          },
        ],
        seqIndex: { '0': '5' },
        entries: [{ path: `link${OSC_TITLE}`, kind: 'symlink', target: `/etc/${CLEAR}` }],
      },
    ],
  });
  store = g.storeDir;
  root = g.roots.b;
  listing = path.join(tmp, 'listing.json');
  fs.writeFileSync(
    listing,
    JSON.stringify({ Name: 'b', KeyCount: 1, Contents: [{ Key: `${tag}/7`, Size: 1, ETag: '"e"', LastModified: '2026-01-01T00:00:00Z' }] }),
  );
  config = path.join(tmp, 'fluent-bit.conf');
  fs.writeFileSync(config, `[OUTPUT]\n    name s3\n    bucket b\n    store_dir ${store}\n    s3_key_format /$TAG/$INDEX\n`);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('escapeField / escapeOutput', () => {
  it('escapes C0, DEL, C1, bidi and separators visibly; escapeOutput keeps line breaks', () => {
    expect(escapeField(`a${OSC_TITLE}b`)).toBe('a\\x1b]0;PWNED\\x07b');
    expect(escapeField(`x${FAKE}\r\t\x7f`)).toBe('x\\x0aFAKE LINE\\x0d\\x09\\x7f');
    expect(escapeField(C1_CSI)).toBe('\\x9b2J');
    expect(escapeField(BIDI)).toBe('\\u{202e}gnp.exe');
    expect(escapeField('\u2066\u2069\u200e\u2028')).toBe('\\u{2066}\\u{2069}\\u{200e}\\u{2028}');
    expect(escapeField('plain ünïcode ✓ 日本')).toBe('plain ünïcode ✓ 日本');
    expect(escapeOutput(`line1\n\tline2${CLEAR}`)).toBe('line1\n\tline2\\x1b[2J');
  });
});

describe('every human output escapes what the store holds', () => {
  it('scan (text): tags, chunk names, stream and symlink names, multipart keys, paths', () => {
    const r = cli('scan', store);
    expect(r.code).toBe(3); // a damaged chunk
    expectClean(r.out, 'scan stdout');
    expectClean(r.err, 'scan stderr');
    expect(r.out).toContain('app\\x1b]0;PWNED\\x07\\u{202e}gnp.exe');
    expect(r.out).toContain('2-bad\\x1b[2J\\x0aFAKE LINE');
    expect(r.out).toContain('\\x1b]8;;https://evil.example/\\x07click');
    expect(r.out).toContain('\\x9b2Jkey');
    expect(r.out).toContain('link\\x1b]0;PWNED\\x07');
  });

  it('scan --json stays exact', () => {
    const j = JSON.parse(cli('scan', store, '--json').out);
    const chunks = j.roots[0].streams.find((s: { kind: string }) => s.kind === 'data').chunks;
    expect(chunks.map((c: { name: string }) => c.name)).toContain(`2-bad${CLEAR}${FAKE}`);
    expect(chunks[0].tag).toBe(`app${OSC_TITLE}${BIDI}${OSC8}`);
  });

  it('diagnose (text): keys from the listing and the store path in findings and commands', () => {
    const r = cli('diagnose', store, '--config', config, '--listing', listing);
    expect(r.out).toContain('INDEX_BEHIND_BUCKET');
    expectClean(r.out, 'diagnose stdout');
    expectClean(r.err, 'diagnose stderr');
    expect(r.out).toContain('app\\x1b]0;PWNED\\x07\\u{202e}gnp.exe/7');
  });

  it('repair-index plan (text) and errors on stderr', () => {
    const r = cli('repair-index', store, '--config', config, '--listing', listing);
    expect(r.out).toContain('Set seq_index_0');
    expectClean(r.out, 'plan stdout');
    expectClean(r.err, 'plan stderr');
    const e = cli('scan', path.join(tmp, `missing${OSC_TITLE}${FAKE}`));
    expect(e.code).toBe(2);
    expect(e.err).toContain('missing\\x1b]0;PWNED\\x07\\x0aFAKE LINE: no such file or directory');
    expectClean(e.err, 'error stderr');
  });

  it('report --format markdown (CLI and export): no control characters, no faked lines', async () => {
    const r = cli('report', store, '--config', config, '--listing', listing, '--format', 'markdown');
    expect(r.code).toBe(0);
    expectClean(r.out, 'report stdout');
    expect(r.out).toContain('app\\x1b]0;PWNED\\x07\\u{202e}gnp.exe');
    const run = await runDiagnosis({ storePath: store, configPath: config, listing: [listing] });
    const md = exportMarkdown({ report: run.report, diagnosis: run.diagnosis, version: 'test' }).text;
    expectClean(md, 'exportMarkdown');
    expect(md).toContain('`seq_index_0`');
    expect(root).toContain(CLEAR);
  });
});
