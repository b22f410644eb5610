import type { Command } from 'commander';

/** Placeholder until the `report` command lands; replaced by its owner. */
export function registerReport(_program: Command): void {}
