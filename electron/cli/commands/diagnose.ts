import type { Command } from 'commander';

/** Placeholder until the `diagnose` command lands; replaced by its owner. */
export function registerDiagnose(_program: Command): void {}
