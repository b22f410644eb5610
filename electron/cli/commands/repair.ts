import type { Command } from 'commander';

/** Placeholder until the `repair` command lands; replaced by its owner. */
export function registerRepair(_program: Command): void {}
