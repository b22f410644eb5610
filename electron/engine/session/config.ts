/**
 * Loading a Fluent Bit config into a session: from a host path or an uploaded document, with
 * `${ENV}` expanded from the engine's environment and every secret-looking value redacted before
 * it can reach a door (the renderer, a log, a report).
 */
import path from 'node:path';
import type { FluentBitConfig } from '../../../shared/model';
import { loadFluentBitConfig, parseFluentBitConfig } from '../fluentbit';

const SECRET_KEY = /(secret|password|passwd|token|credential|access_key|session)/i;

/** Config values whose name says secret never leave the engine (they were `${ENV}`-expanded). */
export function redactConfig(config: FluentBitConfig): FluentBitConfig {
  return {
    ...config,
    outputs: config.outputs.map((o) => ({
      ...o,
      properties: Object.fromEntries(Object.entries(o.properties).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : v])),
    })),
  };
}

export async function loadConfigFile(p: string): Promise<FluentBitConfig> {
  return redactConfig(await loadFluentBitConfig(p, { env: process.env }));
}

export async function loadConfigText(name: string, text: string): Promise<FluentBitConfig> {
  return redactConfig(await parseFluentBitConfig(text, { fileName: path.basename(name), env: process.env }));
}
