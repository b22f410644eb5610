/**
 * What a door opens before the user sees it (`serve <path>`, `npm start <path>`), and where the
 * host keeps its small state (recent stores).
 */
import os from 'node:os';
import path from 'node:path';
import type { Engine } from '../../shared/contract';
import { dispatchRequest } from '../engine/session/dispatch';

/** `$STORE_DOCTOR_STATE_DIR`, else `$XDG_CONFIG_HOME/store-doctor`, else `~/.config/store-doctor`. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.STORE_DOCTOR_STATE_DIR) return path.resolve(env.STORE_DOCTOR_STATE_DIR);
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(os.homedir(), '.config');
  return path.join(base, 'store-doctor');
}

/** Open `target` (a store path, or `demo`) and return its store id; throws a readable error. */
export async function openInitial(engine: Engine, target: string): Promise<string> {
  const reply =
    target === 'demo' ? await dispatchRequest(engine, 'store.openDemo', {}) : await dispatchRequest(engine, 'store.open', { path: path.resolve(target) });
  if (!reply.ok) throw new Error(reply.error.message);
  return (reply.value as { storeId: string }).storeId;
}
