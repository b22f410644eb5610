/**
 * Progress of long work: exact figures (count, bytes, rate, ETA) from engine progress events; a
 * bar and then one summary line on a terminal; nothing on a pipe, nothing with --quiet; no
 * colors with --no-color or NO_COLOR. Last, the compiled CLI on a real pseudo-terminal (script(1))
 * and on a pipe.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endProgress, progressFigures, setOutputSettings, setProgressClock, showProgress, summaryLine } from '../../electron/cli/progress';
import { generateEdgeCaseStore } from '../fixtures/generate';

const ROOT = path.join(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-progress-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

class FakeTerminal extends Writable {
  text = '';
  isTTY: boolean;
  columns = 150;
  constructor(tty = true) {
    super();
    this.isTTY = tty;
  }
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
  /** readline.cursorTo / clearLine call these on a TTY stream. */
  cursorTo(_x: number, _y?: number, cb?: () => void): boolean {
    this.text += '\r';
    cb?.();
    return true;
  }
  clearLine(_dir: number, cb?: () => void): boolean {
    this.text += '\x1b[K';
    cb?.();
    return true;
  }
}

let now = 0;
setProgressClock(() => now);
afterEach(() => {
  endProgress();
  setOutputSettings({ quiet: false, color: true });
  delete process.env.NO_COLOR;
});

const ESC_COLOR = /\x1b\[(1|3\d)m/;

describe('progress figures', () => {
  it('by bytes when the total size is known (an archive): fraction, rate and ETA', () => {
    const f = progressFigures({ task: 'scan', done: 40, total: null, bytes: 3 * 1048576, totalBytes: 12 * 1048576 }, 2);
    expect(f).toEqual({ fraction: 0.25, count: '40 files', bytes: '3.0 MiB/12 MiB', rate: '1.5 MiB/s', eta: '6.0 s' });
  });

  it('by count when only the number of items is known (a folder, a listing, a replay)', () => {
    expect(progressFigures({ task: 'scan', done: 1500, total: 6000, bytes: 2048, totalBytes: null }, 3)).toEqual({
      fraction: 0.25,
      count: '1,500/6,000 files',
      bytes: '2.0 KiB',
      rate: '683 B/s',
      eta: '9.0 s',
    });
    expect(progressFigures({ task: 'list', done: 3, total: 4 }, 1.5)).toEqual({
      fraction: 0.75,
      count: '3/4 listings',
      bytes: null,
      rate: '2.0/s',
      eta: '0.5 s',
    });
    expect(progressFigures({ task: 'replay', done: 1, total: 1, bytes: 10, totalBytes: 10 }, 0).eta).toBeNull();
  });

  it('one summary line: count, bytes, time and rate', () => {
    expect(summaryLine({ task: 'scan', done: 12, total: 12, bytes: 1153434, totalBytes: null }, 0.3)).toBe('✓ scan: 12 files, 1.1 MiB in 0.3 s (3.7 MiB/s)');
    expect(summaryLine({ task: 'replay', done: 1, total: 1 }, 130)).toBe('✓ replay: 1 chunk in 2 min 10 s (0.0/s)');
    expect(summaryLine({ task: 'list', done: 2, total: 2 }, 0.01, true)).toBe('\x1b[32m✓\x1b[0m list: 2 listings in 0.0 s');
  });
});

describe('progress on stderr', () => {
  it('a terminal gets a bar, then one summary line per task', () => {
    const t = new FakeTerminal();
    now = 0;
    showProgress({ task: 'scan', done: 0, total: null, bytes: 0, totalBytes: 4096 }, t);
    now = 1000;
    showProgress({ task: 'scan', done: 3, total: 3, bytes: 4096, totalBytes: 4096 }, t);
    now = 1500;
    showProgress({ task: 'list', done: 1, total: 2 }, t); // a new task ends the first
    now = 2500;
    showProgress({ task: 'list', done: 2, total: 2 }, t);
    endProgress();
    expect(t.text).toMatch(/scan\x1b\[0m .*\s+0% \| 0 files \| 0 B\/4\.0 KiB/);
    const lines = t.text.split('\n');
    expect(lines.filter((l) => l.includes('✓'))).toHaveLength(2);
    expect(t.text).toContain('\x1b[32m✓\x1b[0m scan: 3 files, 4.0 KiB in 1.5 s (2.7 KiB/s)\n');
    expect(t.text.endsWith('\x1b[32m✓\x1b[0m list: 2 listings in 1.0 s (2.0/s)\n')).toBe(true);
  });

  it('the current item (a store file name) is shown escaped: no bidi override, no terminal control (issue 17)', () => {
    const t = new FakeTerminal();
    now = 0;
    showProgress({ task: 'scan', done: 1, total: 2, current: 'stream/\u202egnp.exe\u2066x\x1b]0;PWNED\x07' }, t);
    endProgress();
    expect(t.text).toContain('stream/\\u{202e}gnp.exe\\u{2066}x\\x1b]0;PWNED\\x07');
    expect(t.text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\x07]|\x1b\]/);
  });

  it('a pipe gets nothing, not even the summary', () => {
    const pipe = new FakeTerminal(false);
    showProgress({ task: 'scan', done: 1, total: 2, bytes: 1, totalBytes: 2 }, pipe);
    endProgress();
    expect(pipe.text).toBe('');
  });

  it('--quiet shows nothing; --no-color and NO_COLOR show no colors', () => {
    const t = new FakeTerminal();
    setOutputSettings({ quiet: true });
    showProgress({ task: 'scan', done: 1, total: 2 }, t);
    endProgress();
    expect(t.text).toBe('');
    for (const off of [() => setOutputSettings({ quiet: false, color: false }), () => ((process.env.NO_COLOR = '1'), setOutputSettings({ quiet: false }))]) {
      off();
      const plain = new FakeTerminal();
      showProgress({ task: 'scan', done: 1, total: 2 }, plain);
      endProgress();
      expect(plain.text).toContain('✓ scan: 1 file in');
      expect(plain.text).not.toMatch(ESC_COLOR);
    }
  });
});

describe('the compiled CLI', () => {
  const store = path.join(tmp, 'store');
  beforeAll(async () => {
    await generateEdgeCaseStore(store);
  });
  const CLI = path.join(ROOT, 'out/cli/store-doctor.cjs');
  const hasScript = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).status === 0;

  it.runIf(hasScript)('on a terminal: the scan ends with its summary line on stderr; --quiet and NO_COLOR respected', () => {
    const onTty = (args: string, env: Record<string, string> = {}) =>
      spawnSync('script', ['-qefc', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${args} >/dev/null`, '/dev/null'], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
        timeout: 60_000,
      }).stdout;
    const shown = onTty(`scan ${JSON.stringify(store)}`);
    expect(shown).toMatch(/\x1b\[32m✓\x1b\[0m scan: \d+ files, [\d.]+ (B|KiB) in [\d.]+ s/);
    expect(onTty(`--quiet scan ${JSON.stringify(store)}`)).not.toContain('scan:');
    const plain = onTty(`scan ${JSON.stringify(store)}`, { NO_COLOR: '1' });
    expect(plain).toMatch(/✓ scan: \d+ files/);
    expect(plain).not.toMatch(ESC_COLOR);
    expect(onTty(`scan ${JSON.stringify(store)} --no-color`)).not.toMatch(ESC_COLOR);
  });

  it('on a pipe: stderr stays empty', () => {
    const r = spawnSync(process.execPath, [CLI, 'scan', store, '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect([0, 3]).toContain(r.status);
    expect(r.stderr).toBe('');
  });
});
