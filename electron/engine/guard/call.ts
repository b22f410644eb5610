/**
 * How the guard daemon reaches the disk: contract requests through a session (the dispatch of
 * session/dispatch.ts — validation, confinement, the one write pipeline), never engine internals.
 * A failed request throws (the CLI's session throws its CliError; the app's session an EngineError).
 */
import type { RequestInput, RequestName, RequestResult } from '../../../shared/contract';

export type GuardCall = <N extends RequestName>(name: N, input: RequestInput<N>) => Promise<RequestResult<N>>;
