/**
 * Debian's `prometheus` package (2.42, with promtool): `.ci/run` and scripts/test.mjs install it.
 * PROMETHEUS_BIN / PROMTOOL_BIN override the paths. A missing binary is an error that says how to
 * install it, never a skipped test.
 */
import { existsSync } from 'node:fs';

function bin(env: string, name: string): string {
  const p = process.env[env] ?? `/usr/bin/${name}`;
  if (!existsSync(p)) throw new Error(`${p} not found: install Debian's prometheus package (apt-get install -y prometheus) or set ${env}`);
  return p;
}

export const promtoolBin = (): string => bin('PROMTOOL_BIN', 'promtool');
export const prometheusBin = (): string => bin('PROMETHEUS_BIN', 'prometheus');
