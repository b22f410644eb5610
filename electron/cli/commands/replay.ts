import type { Command } from 'commander';

/** Placeholder until the `replay` command lands; replaced by its owner. */
export function registerReplay(_program: Command): void {}
