/**
 * A finding's next steps (requests, as data) rendered as `store-doctor` command lines — for the
 * terminal and for the Markdown report a support engineer pastes into a ticket. The app renders
 * the same steps as buttons. Pure and isomorphic.
 */
import type { NextStep } from './model';

/** What the recommended command lines should repeat of the current invocation. */
export interface CommandContext {
  /** Store path as the user gave it. */
  store: string;
  /** Config file, when one was used. */
  config?: string | null;
  /** Evidence arguments as given (`--listing f`, `--live --profile p`, …), already split. */
  evidenceArgs?: string[];
  /** Add `--output <id>` (several S3 outputs). */
  multipleOutputs?: boolean;
  /** `--fluent-bit-version x.y.z` / `--fluent-bit-bin p` as given: every command that diagnoses repeats them. */
  fluentBitArgs?: string[];
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const OFFLINE_EVIDENCE = new Set(['--listing', '--versions', '--multipart']);

/**
 * The evidence arguments of a command that needs the bucket itself (replay, multipart,
 * recover-versions need `--live`): the live options as given, else `--live`.
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

/** A `store-doctor` command line. `evidence: false` leaves the evidence options out; `live` is for commands that need the bucket. */
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
  if (opts.live) parts.push(...liveArgs(ctx.evidenceArgs).map(shellQuote));
  else if (opts.evidence !== false && ctx.evidenceArgs?.length) parts.push(...ctx.evidenceArgs.map(shellQuote));
  if (name !== 'undo' && ctx.fluentBitArgs?.length) parts.push(...ctx.fluentBitArgs.map(shellQuote));
  if (opts.extra) parts.push(...opts.extra);
  if (opts.apply) parts.push('--apply');
  return parts.join(' ');
}

/** One next step as the command line(s) that do it. */
export function stepCommands(step: NextStep, ctx: CommandContext): string[] {
  const r = step.request;
  switch (r.name) {
    case 'repair.plan': {
      const i = r.input;
      const id = i.outputId ?? null;
      switch (i.action) {
        case 'repair-index':
          return [command(ctx, 'repair-index', id, { apply: true, extra: i.value !== undefined ? ['--value', String(i.value)] : [] })];
        case 'protect-index':
          return [command(ctx, 'protect-index', id, { evidence: false, extra: i.method ? ['--method', i.method] : [], apply: true })];
        case 'restore-index':
          return [command(ctx, 'restore-index', id, { evidence: false, apply: true })];
        case 'replay':
          return [command(ctx, 'replay', id, { live: true, extra: i.includeActive ? ['--include-active'] : [], apply: true })];
        case 'multipart': {
          const extra = [...(i.multipartDecision ? [`--${i.multipartDecision}`] : []), ...(i.abortOrphans ? ['--abort-orphans'] : [])];
          return [command(ctx, 'multipart', id, { live: true, extra, apply: true })];
        }
        case 'recover-versions':
          return [command(ctx, 'recover-versions', id, { live: true, apply: true })];
        case 'undo':
          return [command(ctx, 'undo', null, { evidence: false, apply: true })];
      }
      return [];
    }
    case 'evidence.live':
      return [command(ctx, 'diagnose', r.input.outputId, { live: true, extra: r.input.fullListing ? ['--full-listing'] : [] })];
    case 'evidence.importOffline': {
      const { bucket, kind } = r.input;
      const api = kind === 'listing' ? 'list-objects-v2' : kind === 'versions' ? 'list-object-versions' : 'list-multipart-uploads';
      const file = `${kind === 'listing' ? 'listing' : kind}.json`;
      return [`aws s3api ${api} --bucket ${shellQuote(bucket)} > ${file}`, command(ctx, 'diagnose', r.input.outputId ?? null, { extra: [`--${kind}`, file] })];
    }
    case 'config.load':
      return [command({ ...ctx, config: null }, 'diagnose', null, { extra: ['--config', '<fluent-bit.conf>'] })];
    case 'store.rescan':
      return [`store-doctor scan ${shellQuote(ctx.store)}`];
  }
}
