/**
 * What the guard keeps per root it watches, its options, and two small lookups on the report. Its
 * behaviour is in ./door.ts.
 */
import * as path from 'node:path';
import type { StoreReport } from '../../../shared/model';

export interface GuardOptions {
  store: string;
  config: string;
  stateDir: string;
  /** Also keep a marker chunk in sequence/ where it is safe. */
  marker?: boolean;
  pollMs?: number;
  refreshDebounceMs?: number;
  /** Log every session request with its duration. */
  trace?: boolean;
  log: (line: string) => void;
}

export interface OutputWatch {
  id: number;
  displayName: string;
  bucket: string;
}

export interface RootWatch {
  bucket: string;
  rootPath: string;
  shadowDir: string;
  outputs: OutputWatch[];
  guarded: Map<number, { value: number; final: boolean }>;
  restores: Map<number, number>;
  lastRestoreAt: string | null;
  /** No process uses the root (checked), and nothing wrote in place since. */
  idle: boolean;
  deletedAt: number | null;
  restoring: boolean;
  /** Another deletion was seen while restoring: go round once more. */
  again: boolean;
  /** Processes seen using the root while Fluent Bit ran (waited for after a graceful stop). */
  pids: number[];
  learning: boolean;
  /** The processes were looked up during this run of Fluent Bit (again after the next restore). */
  learned: boolean;
  /** Ends the wait between two attempts. */
  wake: (() => void) | null;
  problem: string | null;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `<root>/<stream>` of a path under one of the roots (else the path itself). */
export function streamOf(p: string, roots: string[]): string {
  const root = roots.find((r) => p.startsWith(r + path.sep));
  return root ? path.join(root, p.slice(root.length + 1).split(path.sep)[0]) : p;
}

/** seq_index values of a root in a report (id → value). */
export function rootFactsOf(report: StoreReport | null, rootPath: string): Map<number, number | null> {
  const root = report?.roots.find((r) => r.path === rootPath);
  return new Map((root?.seqIndex ?? []).filter((x) => x.outputId !== null).map((x) => [x.outputId as number, x.value] as const));
}
