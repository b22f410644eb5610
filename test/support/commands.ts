/** A finding's next steps as the CLI renders them (command lines), for tests of what it recommends. */
import type { Finding } from '../../shared/model';
import { stepCommands, type CommandContext } from '../../shared/suggest-cli';

export const DEFAULT_CTX: CommandContext = { store: '/data/store', config: '/etc/fb/fluent-bit.conf' };

/** The recommended command lines, one per line (and the action text before them, as `diagnose` prints it). */
export function commandsOf(f: Finding, ctx: Partial<CommandContext> = {}): string {
  return f.next.flatMap((s) => stepCommands(s, { ...DEFAULT_CTX, ...ctx })).join('\n');
}

/** The action and its commands, as the CLI shows them together. */
export function actionText(f: Finding, ctx: Partial<CommandContext> = {}): string {
  return `${f.action}\n${commandsOf(f, ctx)}`;
}
