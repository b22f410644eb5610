/**
 * Waiting for processes to exit (the guard, after a graceful stop deleted `sequence/`): a cheap
 * poll of `/proc/<pid>/stat` — gone or a zombie (it holds no file any more) counts as exited. Only
 * a wait: the write pipeline still checks every process before it writes.
 */
import { promises as fsp } from 'node:fs';

async function alive(pid: number): Promise<boolean> {
  const stat = await fsp.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return false;
  // "<pid> (<comm>) <state> …": comm may hold spaces and parentheses, the state follows the last ")"
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Resolves true when every pid has exited, false after `timeoutMs`. */
export async function processesGone(pids: number[], timeoutMs: number, intervalMs = 5): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let left = pids;
  for (;;) {
    const still: number[] = [];
    for (const pid of left) if (await alive(pid)) still.push(pid);
    left = still;
    if (!left.length) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
