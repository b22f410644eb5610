/** Outputs of a loaded Fluent Bit config, looked up the way every door names them. Pure. */
import type { FluentBitConfig, FluentBitOutput } from './model';

/** Find an output by id (`0`), instance name (`s3.0`) or alias. */
export function findOutput(config: FluentBitConfig, nameOrId: string): FluentBitOutput | null {
  const t = nameOrId.trim();
  if (/^\d+$/.test(t)) return config.outputs.find((o) => o.id === Number(t)) ?? null;
  return config.outputs.find((o) => o.alias === t || o.displayName === t || `${o.plugin}.${o.id}` === t) ?? null;
}
