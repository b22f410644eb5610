/**
 * One request through a door: validate the untrusted input against the contract, confine paths
 * to the stores the user opened, run the handler with a task id, and answer with a `Reply` —
 * never a thrown error. Every door calls this: the Electron IPC binding (main/ipc.ts), the loopback
 * host (host/server.ts, host/open.ts) and the CLI's in-process session (cli/session.ts), which the
 * guard daemon uses too.
 */
import { randomUUID } from 'node:crypto';
import { parseRequest, type ContractError, type Engine, type Reply, type RequestName } from '../../../shared/contract';
import type { Progress } from '../../../shared/model';
import { toContractError } from './errors';

/** Requests whose path the user picked themselves (file dialog, typed path): not confined. */
const UNCONFINED: ReadonlySet<string> = new Set([
  'store.open',
  'config.load',
  'fleet.open',
  'storagePath.open',
  'storagePath.configured',
  'storagePath.export',
]);
/** Input fields that name a local path. */
const PATH_FIELDS = ['path', 'rootPath', 'storePath'] as const;

/** Refuse a request that names a path outside the opened stores. */
export function checkConfinement(engine: Pick<Engine, 'isPathInOpenedStores'>, request: string, input: unknown): ContractError | null {
  if (UNCONFINED.has(request) || !input || typeof input !== 'object') return null;
  for (const field of PATH_FIELDS) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === 'string' && !engine.isPathInOpenedStores(value)) {
      return { code: 'forbidden', message: `${request}: ${field} is outside the stores opened in this session` };
    }
  }
  return null;
}

export interface DispatchOptions {
  taskId?: string;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

const TASK_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export async function dispatchRequest(engine: Engine, name: unknown, rawInput: unknown, opts: DispatchOptions = {}): Promise<Reply<unknown>> {
  if (typeof name !== 'string') return { ok: false, error: { code: 'invalid-input', message: 'the request name must be a string' } };
  const parsed = parseRequest(name, rawInput ?? {});
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const request = parsed.request as RequestName;
  if (opts.taskId !== undefined && (typeof opts.taskId !== 'string' || !TASK_ID.test(opts.taskId))) {
    return { ok: false, error: { code: 'invalid-input', message: 'taskId must be 1-200 letters, digits, ".", "_", ":" or "-"' } };
  }
  const refused = checkConfinement(engine, request, parsed.input);
  if (refused) return { ok: false, error: refused };
  const signal = opts.signal ?? new AbortController().signal;
  const handler = engine.handlers[request] as (
    input: unknown,
    ctx: { taskId: string; signal: AbortSignal; onProgress: (p: Progress) => void },
  ) => Promise<unknown>;
  try {
    const value = await handler(parsed.input, { taskId: opts.taskId ?? randomUUID(), signal, onProgress: opts.onProgress ?? (() => {}) });
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: toContractError(err, { signal, request }) };
  }
}
