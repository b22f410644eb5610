/** Small text helpers for findings: index ranges, lists with a cap, shell quoting, commands. */
import { pushAll } from '../../../shared/arrays';

/** `[0,1,2,3,7,9,10]` → `0–3, 7, 9–10`. */
export function indexRanges(values: number[]): string {
  const v = [...new Set(values)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < v.length;) {
    let j = i;
    while (j + 1 < v.length && v[j + 1] === v[j] + 1) j++;
    out.push(i === j ? String(v[i]) : `${v[i]}–${v[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** At most `max` lines, then "… and N more". */
export function capped(lines: string[], max = 20): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), `… and ${lines.length - max} more`];
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** What the recommended `store-doctor …` commands should repeat. */
export interface CommandContext {
  /** Store path as the user gave it. */
  store: string;
  /** Config file, when one was used. */
  config?: string | null;
  /** Evidence arguments as given (`--listing f`, `--live --profile p`, …), already split. */
  evidenceArgs?: string[];
  /** Add `--output <id>` (several S3 outputs). */
  multipleOutputs?: boolean;
}

/** Offline evidence options and how many values each takes. */
const OFFLINE_EVIDENCE = new Set(['--listing', '--versions', '--multipart']);

/**
 * The evidence arguments of a command that needs the bucket itself (replay, multipart,
 * recover-versions refuse to run without `--live`): the live options as given, else `--live`.
 */
export function liveArgs(evidenceArgs: string[] | undefined): string[] {
  const args = evidenceArgs ?? [];
  if (!args.includes('--live')) return ['--live'];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (OFFLINE_EVIDENCE.has(args[i])) i++;
    else out.push(args[i]);
  }
  return out;
}

/**
 * A `store-doctor` command line. `evidence: false` leaves the evidence options out; `live: true`
 * is for commands that need the bucket (see liveArgs).
 */
export function command(
  ctx: CommandContext,
  name: string,
  outputId: number | null,
  opts: { evidence?: boolean; live?: boolean; apply?: boolean; extra?: string[] } = {},
): string {
  // archives are read-only evidence: commands that change something run on the live store_dir
  const store = opts.apply && /\.(tar|tar\.gz|tgz)$/i.test(ctx.store) ? '<store_dir>' : shellQuote(ctx.store);
  const parts = ['store-doctor', name, store];
  if (ctx.config) parts.push('--config', shellQuote(ctx.config));
  if (outputId !== null && ctx.multipleOutputs) parts.push('--output', String(outputId));
  if (opts.live) pushAll(parts, liveArgs(ctx.evidenceArgs).map(shellQuote));
  else if (opts.evidence !== false && ctx.evidenceArgs?.length) pushAll(parts, ctx.evidenceArgs.map(shellQuote));
  if (opts.extra) pushAll(parts, opts.extra);
  if (opts.apply) parts.push('--apply');
  return parts.join(' ');
}

export function isoOrNull(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
