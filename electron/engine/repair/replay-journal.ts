/**
 * The replay journal `<root>/.store-doctor/replay.jsonl`: one fsynced line per step (intent with
 * its key → uploaded → moved, conflicts, the index written). Read back to resume a killed replay.
 */
import * as path from 'node:path';
import { readLines, toolDir } from './journal';

export const REPLAY_JOURNAL = 'replay.jsonl';

export type ReplayLine =
  | { t: 'intent'; chunk: string; src: string; key: string; index: number | null; size: number; md5: string; at: string }
  | { t: 'uploaded'; chunk: string; src: string; key: string; etag: string | null; at: string }
  | { t: 'moved'; chunk: string; src: string; to: string; at: string }
  | { t: 'conflict'; chunk: string; src: string; key: string; at: string }
  | { t: 'index'; value: number; at: string };

export interface ChunkState {
  intent?: Extract<ReplayLine, { t: 'intent' }>;
  uploaded?: Extract<ReplayLine, { t: 'uploaded' }>;
  moved?: Extract<ReplayLine, { t: 'moved' }>;
}

export async function loadReplayState(rootPath: string): Promise<{ states: Map<string, ChunkState>; maxIndex: number | null }> {
  const lines = await readLines<ReplayLine>(path.join(toolDir(rootPath), REPLAY_JOURNAL));
  const states = new Map<string, ChunkState>();
  let maxIndex: number | null = null;
  for (const l of lines) {
    if (l.t === 'index') continue;
    const id = `${l.chunk}\0${l.src}`;
    const s = states.get(id) ?? {};
    if (l.t === 'intent') {
      s.intent = l;
      if (l.index !== null) maxIndex = Math.max(maxIndex ?? -1, l.index);
    } else if (l.t === 'uploaded') s.uploaded = l;
    else if (l.t === 'moved') s.moved = l;
    states.set(id, s);
  }
  return { states, maxIndex };
}
