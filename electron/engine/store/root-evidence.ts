/**
 * Signs that a folder is the root Fluent Bit uses for a bucket (`<store_dir>/<bucket>`, spec
 * §1.1), read from the folder itself. Used before creating anything in it (repair-index creating
 * `sequence/`): an empty folder with another name shows nothing, and writing an index there would
 * protect nothing and could mislead. Read-only; never follows anything but the folder itself.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isStreamLikeName, OWN_DIR } from './tree';

export interface RootEvidence {
  /** What points at it being the bucket's root, one sentence each. */
  signs: string[];
  /** What points against it (informative). */
  against: string[];
}

/** The signs that `dir` is the root of `bucket` (null: the bucket is not known). */
export async function rootEvidence(dir: string, bucket: string | null): Promise<RootEvidence> {
  const signs: string[] = [];
  const against: string[] = [];
  const name = path.basename(path.resolve(dir));
  if (bucket !== null) {
    if (name === bucket) signs.push(`it is named like the bucket (${bucket}): Fluent Bit's root is <store_dir>/<bucket>`);
    else against.push(`it is named ${name}, not ${bucket}`);
  }
  let entries: fs.Dirent[] = [];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (err) {
    against.push(`it cannot be listed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const streamLike = entries.filter((e) => e.isDirectory() && isStreamLikeName(e.name)).map((e) => `${e.name}/`);
  if (streamLike.length)
    signs.push(`it holds folders Fluent Bit creates in a root (${streamLike.slice(0, 4).join(', ')}${streamLike.length > 4 ? ', …' : ''})`);
  if (entries.some((e) => e.isDirectory() && e.name === OWN_DIR)) signs.push('Store Doctor worked on it as a root before (.store-doctor/)');
  if (!entries.some((e) => !e.name.startsWith('.'))) against.push('it is empty');
  return { signs, against };
}
