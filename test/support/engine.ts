/* eslint-disable @typescript-eslint/no-explicit-any -- tests read untyped replies */
/** A request through the engine's one dispatcher, for session tests. */
import { dispatchRequest } from '../../electron/engine';
import type { Engine } from '../../shared/contract';

/** The value of `name`, or an error naming the request and the engine's error. */
export async function requestValue<T = any>(engine: Engine, name: string, input: unknown): Promise<T> {
  const r = await dispatchRequest(engine, name, input);
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

/** `requestValue` bound to one engine. */
export const requester =
  (engine: Engine) =>
  <T = any>(name: string, input: unknown): Promise<T> =>
    requestValue<T>(engine, name, input);
