/**
 * The error the engine throws when it knows exactly what went wrong: a contract code, one readable
 * sentence and the file it is about. At the engine's top, not in session/, so any folder may throw
 * it without importing the session (no folder cycle: test/structure/imports.test.ts).
 */
import type { ContractError } from '../../shared/contract';

export class EngineError extends Error {
  constructor(
    readonly code: ContractError['code'],
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
