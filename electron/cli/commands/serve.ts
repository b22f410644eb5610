import type { Command } from 'commander';

/** Placeholder until the `serve` command lands; replaced by its owner. */
export function registerServe(_program: Command): void {}
