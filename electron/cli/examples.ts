/**
 * One worked example per command, shown at the end of `store-doctor <command> --help` (and a
 * few in `store-doctor --help`). Kept here, apart from the commands, so the compiled entry can
 * print help without loading them.
 */
import type { Command } from 'commander';

const CONF = '/etc/fluent-bit/fluent-bit.conf';
const STORE = '/var/lib/fluent-bit/s3';

export const EXAMPLES: Record<string, { text: string; command: string }> = {
  scan: { text: 'everything in a customer snapshot, problems first', command: 'store-doctor scan store.tar.gz' },
  diagnose: {
    text: 'compare the persisted $INDEX with an offline bucket listing',
    command: `store-doctor diagnose store.tar.gz --config fluent-bit.conf --listing listing.json`,
  },
  'repair-index': { text: 'the plan (add --apply to write it, with a backup)', command: `store-doctor repair-index ${STORE} --config ${CONF} --live` },
  'protect-index': {
    text: 'keep sequence/ through the next graceful stop with a marker chunk (for every stop: store-doctor guard)',
    command: `store-doctor protect-index ${STORE} --config ${CONF} --method marker --apply`,
  },
  'restore-index': {
    text: 'before Fluent Bit starts (ExecStartPre): the highest of shadow copy, disk and the live bucket',
    command: `store-doctor restore-index ${STORE} --config ${CONF} --shadow-dir /var/lib/store-doctor/shadow --live --apply`,
  },
  undo: { text: 'undo the last applied action on this store', command: `store-doctor undo ${STORE} --apply` },
  apply: {
    text: 'apply a plan reviewed earlier (saved with --plan-out); refused if anything it rests on changed',
    command: 'store-doctor apply repair-plan.json',
  },
  multipart: { text: 'the plan for stuck multipart uploads', command: `store-doctor multipart ${STORE} --config ${CONF} --live` },
  'recover-versions': {
    text: 'the plan to copy overwritten object versions to a recovery prefix (add --apply to copy)',
    command: `store-doctor recover-versions ${STORE} --config ${CONF} --live`,
  },
  salvage: {
    text: 'the plan to make the chunks Fluent Bit rejects after a crash (storage.checksum on) load again (add --apply)',
    command: `store-doctor salvage --config ${CONF}`,
  },
  replay: { text: 'upload old buffered chunks create-only (plan first)', command: `store-doctor replay ${STORE} --config ${CONF} --live` },
  report: {
    text: 'a support-ticket summary',
    command: 'store-doctor report store.tar.gz --config fluent-bit.conf --listing listing.json --out ticket.md',
  },
  serve: { text: 'the UI on 127.0.0.1 (open the printed URL through an SSH tunnel)', command: 'store-doctor serve store.tar.gz --port 8787' },
  guard: {
    text: 'keep every $INDEX through graceful stops (systemd unit, sidecar); metrics on 127.0.0.1:9464',
    command: `store-doctor guard ${STORE} --config ${CONF} --state-dir /var/lib/store-doctor/guard`,
  },
  fleet: { text: "one table of every node's report (the guards' report.json files)", command: 'store-doctor fleet /srv/store-doctor/reports' },
  version: { text: 'what to quote in a support ticket: version, Node runtime, platform, commit', command: 'store-doctor version --json' },
  completion: {
    text: 'install bash completion for your user',
    command: 'store-doctor completion bash > ~/.local/share/bash-completion/completions/store-doctor',
  },
};

const PROGRAM_EXAMPLES = ['scan', 'diagnose', 'repair-index', 'serve'];

function block(names: string[]): string {
  return ['', 'Example' + (names.length > 1 ? 's' : '') + ':', ...names.flatMap((n) => [`  # ${EXAMPLES[n].text}`, `  $ ${EXAMPLES[n].command}`])].join('\n');
}

/** Adds the example to every command's help (a command without one is a mistake the tests catch). */
export function addExamples(program: Command): Command {
  for (const cmd of program.commands) if (EXAMPLES[cmd.name()]) cmd.addHelpText('after', block([cmd.name()]));
  return program.addHelpText('after', block(PROGRAM_EXAMPLES));
}
