/**
 * The replay journal `<root>/.store-doctor/replay.jsonl`: one line per step (intent with its key,
 * fsynced before the upload → started → uploaded → moved; conflict, failed, cancelled; the index
 * written). Read back to resume a killed replay.
 */
import * as path from 'node:path';
import { readJsonLines } from '../journal';
import { replayLineSchema, type ReplayLine } from '../journal';
import { RefusedError } from '../outcome';
import { lstatOrNull, toolDir, trustedOwners, untrustedReason } from '../write';

export const REPLAY_JOURNAL = 'replay.jsonl';
export type { ReplayLine } from '../journal';

export interface ChunkState {
  intent?: Extract<ReplayLine, { t: 'intent' }>;
  /** The last PUT a run started for this chunk. */
  started?: Extract<ReplayLine, { t: 'started' }>;
  uploaded?: Extract<ReplayLine, { t: 'uploaded' }>;
  moved?: Extract<ReplayLine, { t: 'moved' }>;
}

export async function loadReplayState(rootPath: string): Promise<{ states: Map<string, ChunkState>; maxIndex: number | null }> {
  // A store is hostile input: the journal must be the tool's own file and every line one it writes.
  const file = path.join(toolDir(rootPath), REPLAY_JOURNAL);
  const st = await lstatOrNull(file);
  const why = st && untrustedReason(file, st, 'file', await trustedOwners(rootPath));
  if (why) throw new RefusedError([why]);
  const { records: lines, problems } = await readJsonLines(file, replayLineSchema);
  if (problems.length) throw new RefusedError(problems);
  const states = new Map<string, ChunkState>();
  let maxIndex: number | null = null;
  for (const l of lines) {
    if (l.t === 'index') continue;
    const id = `${l.chunk}\0${l.src}`;
    const s = states.get(id) ?? {};
    if (l.t === 'intent') {
      s.intent = l;
      if (l.index !== null) maxIndex = Math.max(maxIndex ?? -1, l.index);
    } else if (l.t === 'started') s.started = l;
    else if (l.t === 'uploaded') s.uploaded = l;
    else if (l.t === 'moved') s.moved = l;
    states.set(id, s);
  }
  return { states, maxIndex };
}
