/**
 * The command line that does what a button does, in a collapsible block with a copy button —
 * rendered by shared/suggest-cli.ts `stepCommands()`, the renderer the CLI itself uses, from the
 * step (a request as data) and what this session used: store, config, evidence, connection.
 */
import type { NextStep, S3ConnectionOptions } from '../../../shared/model';
import { stepCommands, type CommandContext } from '../../../shared/suggest-cli';
import { connectionInput, useEvidence, type ImportedDoc } from '../state/evidence';
import { useSession } from '../state/session';
import { CopyButton } from './CopyButton';

/** Actions that need the bucket itself (`--live`). */
const LIVE_ACTIONS = new Set(['replay', 'multipart', 'recover-versions']);

function liveFlags(c: S3ConnectionOptions): string[] {
  return [
    '--live',
    ...(c.profile ? ['--profile', c.profile] : []),
    ...(c.region ? ['--region', c.region] : []),
    ...(c.endpoint ? ['--endpoint', c.endpoint] : []),
    ...(c.pathStyle ? ['--path-style'] : []),
  ];
}

function offlineFlags(docs: ImportedDoc[]): string[] {
  return docs.flatMap((d) => [`--${d.kind}`, d.name]);
}

function needsLive(step: NextStep): boolean {
  return (step.request.name === 'repair.plan' && LIVE_ACTIONS.has(step.request.input.action)) || step.request.name === 'evidence.live';
}

export function useCommandContext(live: boolean): CommandContext {
  const store = useSession((s) => s.demoCopy?.path ?? s.opened?.report.source.path ?? '<store>');
  const config = useSession((s) => s.config);
  const evidence = useEvidence((s) => s.evidence);
  const imports = useEvidence((s) => s.imports);
  const form = useEvidence((s) => s.connection);
  const conn = connectionInput(form);
  const evidenceArgs = live || evidence?.source === 'live' ? liveFlags(conn) : offlineFlags(imports);
  return {
    store,
    config: config?.files[0] ?? null,
    evidenceArgs,
    multipleOutputs: (config?.outputs.filter((o) => o.s3).length ?? 0) > 1,
  };
}

export function CliEquivalent({ steps, title = 'Command line' }: { steps: NextStep[]; title?: string }) {
  const live = steps.some(needsLive);
  const ctx = useCommandContext(live);
  const lines = steps.flatMap((s) => stepCommands(s, ctx));
  if (!lines.length) return null;
  const text = lines.join('\n');
  return (
    <details className="cli" data-testid="cli-equivalent">
      <summary>{title}</summary>
      <div className="cli-body">
        <pre>{text}</pre>
        <CopyButton text={text} />
      </div>
    </details>
  );
}
