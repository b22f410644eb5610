/**
 * The CLI's engine session: the same engine, the same contract requests and the same dispatch
 * (validation, path confinement, error mapping) as the Electron window and the loopback host, run
 * in-process. A rule added to the session holds for the terminal too.
 */
import type { ContractError, Engine, RequestInput, RequestName, RequestResult } from '../../shared/contract';
import type { Progress } from '../../shared/model';
import { createEngine, dispatchRequest } from '../engine';
import { CliError, EXIT } from './output';

/** Exit code of a contract error: refusals 5, unusable input 2, the rest 1. */
export function exitCodeOf(e: ContractError): number {
  if (e.code === 'refused') return EXIT.REFUSED;
  if (e.code === 'invalid-input' || e.code === 'not-found' || e.code === 'forbidden') return EXIT.USAGE;
  return EXIT.FAILED;
}

export class CliSession {
  readonly engine: Engine;

  constructor() {
    this.engine = createEngine({ door: 'cli', watch: false });
  }

  /** One request; a contract error becomes a CliError with its exit code. */
  async call<N extends RequestName>(
    name: N,
    input: RequestInput<N>,
    opts: { signal?: AbortSignal; onProgress?: (p: Progress) => void } = {},
  ): Promise<RequestResult<N>> {
    const reply = await dispatchRequest(this.engine, name, input, opts);
    if (!reply.ok) throw new CliError(reply.error.message, exitCodeOf(reply.error));
    return reply.value as RequestResult<N>;
  }

  async dispose(): Promise<void> {
    await this.engine.dispose();
  }
}

/** Run `fn` with a session that is disposed afterwards, whatever happens. */
export async function withSession<T>(fn: (s: CliSession) => Promise<T>): Promise<T> {
  const s = new CliSession();
  try {
    return await fn(s);
  } finally {
    await s.dispose();
  }
}
