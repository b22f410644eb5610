/**
 * The tool knows its own writes (issue 18 case 3): a chunk a replay moved out of the store is
 * reported by the watch when it pleases; while it is still gone that change is ours, however late
 * it arrives. A file that is back (Fluent Bit wrote it again) is someone else's change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isOwnWrite } from '../../../electron/engine/session/handlers-store';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('isOwnWrite', () => {
  it('a path our write removed is ours while it stays gone, after the grace time too', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sd-own-'));
    const moved = path.join(dir, 'bucket', 'stream', 'chunk.flb');
    const s = { path: dir, ownWrites: { paths: new Set([moved]), until: Date.now() - 1 }, ownGone: new Set([moved]) };
    expect(isOwnWrite(s, [moved])).toBe(true);
    // another file changed in the same batch: not ours
    expect(isOwnWrite(s, [moved, path.join(dir, 'bucket', 'stream', 'other.flb')])).toBe(false);
    // the same name written again (Fluent Bit): someone else's change
    writeFileSync(path.join(dir, 'chunk-again'), 'x');
    const back = path.join(dir, 'chunk-again');
    expect(isOwnWrite({ ...s, ownGone: new Set([back]) }, [back])).toBe(false);
  });
});
