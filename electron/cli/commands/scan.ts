import type { Command } from 'commander';

/** Placeholder until the `scan` command lands; replaced by its owner. */
export function registerScan(_program: Command): void {}
