/**
 * `store-doctor` — the command-line door to the engine. Each command lives in `commands/<name>.ts`
 * and registers itself on the program; this file only wires them (run.ts maps errors to exit
 * codes). Run through entry.ts, which answers --version, --help and completion without it.
 */
import { Command } from 'commander';
import { version } from '../../package.json';
import { setOutputSettings } from './progress';
import { runProgram } from './run';
import { configureProgram, describeProgram, type CliSpec } from './spec';
import { addExamples } from './examples';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded only when it is needed: a command line names one command, so
 * only that module (and the part of the engine it uses) is loaded. Help and unknown commands
 * load all of them.
 */
const COMMANDS: [names: string[], load: () => Promise<Register>][] = [
  [['scan'], async () => (await import('./commands/scan')).registerScan],
  [['diagnose'], async () => (await import('./commands/diagnose')).registerDiagnose],
  [['repair-index', 'protect-index', 'restore-index', 'undo', 'multipart', 'recover-versions'], async () => (await import('./commands/repair')).registerRepair],
  [['apply'], async () => (await import('./commands/apply')).registerApply],
  [['replay'], async () => (await import('./commands/replay')).registerReplay],
  [['salvage'], async () => (await import('./commands/salvage')).registerSalvage],
  [['report'], async () => (await import('./commands/report')).registerReport],
  [['serve'], async () => (await import('./commands/serve')).registerServe],
  [['guard'], async () => (await import('./commands/guard')).registerGuard],
  [['fleet'], async () => (await import('./commands/fleet')).registerFleet],
  [['completion'], async () => (await import('./commands/completion')).registerCompletion],
  [['version'], async () => (await import('./commands/version')).registerVersion],
];

/** The command a command line runs: its first word that is not an option (the global options take no value). */
export function commandOf(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const word = (end === -1 ? argv : argv.slice(0, end)).find((a) => !a.startsWith('-'));
  return word !== undefined && COMMANDS.some(([names]) => names.includes(word)) ? word : undefined;
}

/** The program with every command, or (`only`) with the one command a command line runs. */
export async function buildProgram(only?: string): Promise<Command> {
  const program = configureProgram(
    new Command('store-doctor').description('Inspect, diagnose, repair and replay Fluent Bit S3 output buffers (store_dir).'),
    version,
  )
    .option('-q, --quiet', 'no progress bars or summary lines on stderr (errors and warnings still show)')
    .option('--no-color', 'no colors on stderr (also when NO_COLOR is set)');
  program.hook('preAction', () => {
    const o = program.opts<{ quiet?: boolean; color?: boolean }>();
    setOutputSettings({ quiet: o.quiet === true, color: o.color !== false });
  });
  for (const [names, load] of COMMANDS) if (only === undefined || names.includes(only)) (await load())(program);
  return addExamples(program);
}

export async function runCli(argv: string[]): Promise<number> {
  return runProgram(await buildProgram(commandOf(argv)), argv);
}

/** The command line's shape, baked into the compiled entry at build time (scripts/build-cli.mjs). */
export async function programSpec(): Promise<CliSpec> {
  return describeProgram(await buildProgram());
}
