/**
 * Is the newest stream a running Fluent Bit's current run? Fluent Bit writes only into the stream
 * of its own start, and only while it runs: the newest timestamp-named stream is active only while
 * a process uses the store (found through /proc, guard.ts). A stopped Fluent Bit's newest stream is
 * an old stream like the others (older versions keep their given-up chunks there: replay must send
 * them); an archive is a snapshot, never active. Where processes cannot be looked up, the newest
 * stream stays treated as active (the conservative answer), and the reason says so.
 */
import type { RootReport } from '../../../../shared/model';
import { findFluentBitProcesses, findProcessesUsing } from './write-check';

export interface ActiveStreamCheck {
  /** The newest timestamp-named data stream (null: none). */
  newest: string | null;
  /** Treated as a running Fluent Bit's current run (replayed only when asked for). */
  active: boolean;
  /** What was checked and what it showed, for the plan (names pids: it may change between two runs). */
  reason: string;
}

/** The newest timestamp-named data stream: the stream of the last Fluent Bit start. */
export function newestStreamName(root: RootReport): string | null {
  const ts = root.streams.filter((s) => s.kind === 'data' && s.startTime).sort((a, b) => (a.startTime! < b.startTime! ? 1 : -1));
  return ts[0]?.name ?? null;
}

export async function checkActiveStream(root: RootReport, rootPath: string, opts: { archive?: boolean } = {}): Promise<ActiveStreamCheck> {
  const newest = newestStreamName(root);
  if (!newest)
    return { newest, active: false, reason: 'The store has no timestamp-named data stream: no stream can be the current run of a running Fluent Bit.' };
  if (opts.archive) return { newest, active: false, reason: `${newest} is the newest stream of an archive: a snapshot, which no Fluent Bit writes to.` };
  const use = await findProcessesUsing(rootPath);
  if (!use.supported)
    return {
      newest,
      active: true,
      reason: `Processes using the store cannot be looked up on this system (no /proc): ${newest}, the newest stream, is treated as a running Fluent Bit's current run and left out. Once Fluent Bit is stopped, include the active stream.`,
    };
  if (use.processes.length) {
    const who = use.processes.map((p) => `${p.pid} (${p.command})`).join(', ');
    return {
      newest,
      active: true,
      reason: `Process${use.processes.length === 1 ? '' : 'es'} ${who} use${use.processes.length === 1 ? 's' : ''} the store (${use.processes[0].paths[0]}): ${newest}, the newest stream, is its current run and is left out.`,
    };
  }
  const hidden = use.uninspectable ? await findFluentBitProcesses(use.uninspectablePids) : [];
  if (hidden.length)
    return {
      newest,
      active: true,
      reason: `Fluent Bit ${hidden.map((p) => `${p.pid} (${p.command})`).join(', ')} runs and its open files could not be inspected (permission denied): ${newest}, the newest stream, may be its current run and is left out. Run as root to check, or include the active stream once Fluent Bit is stopped.`,
    };
  return {
    newest,
    active: false,
    reason: `No process uses ${rootPath} (checked the open files, mappings and working directory of ${use.inspected} processes in /proc${use.uninspectable ? `; ${use.uninspectable} could not be inspected, none of them named fluent-bit` : ''}): ${newest}, the newest stream, is a stopped Fluent Bit's and is replayed like the older ones.`,
  };
}
