/**
 * The compiled CLI's entry: `out/cli/store-doctor.cjs` (npm package) and the single executable.
 *
 * It answers `--version`, `version`, `--help` / `help`, `completion` and a bare `store-doctor` from the
 * command line's shape, baked in at build time (spec.ts), without loading the engine, the host
 * or the AWS SDK. Every other command line goes to the real program (main.ts), loaded then —
 * in the npm package that is the separate file `cli.cjs`, so starting up parses only this one.
 * Run from the TypeScript sources (no baked shape) everything goes to the real program.
 */
import type { CliSpec } from './spec';
import type { Shell } from './completion';

declare const __STORE_DOCTOR_SPEC__: CliSpec | undefined;

function bakedSpec(): CliSpec | null {
  return typeof __STORE_DOCTOR_SPEC__ === 'undefined' ? null : __STORE_DOCTOR_SPEC__;
}

const isVersion = (args: string[]) => args.length === 1 && (args[0] === '-V' || args[0] === '--version');

/** Whether this command line only needs the command line's shape: help, version, completion, nothing. */
export function answersWithoutEngine(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  if (args.length === 0 || isVersion(args)) return true;
  if (args[0] === 'help' || args[0] === 'completion' || args[0] === 'version') return true;
  return args.includes('-h') || args.includes('--help');
}

function realProgram(argv: string[]): Promise<number> {
  // The build maps this to the separate file cli.cjs (npm package) or bundles it (single executable).
  const { runCli } = require('./main') as typeof import('./main');
  return runCli(argv);
}

/**
 * `store-doctor … | head -1`: once the reader of stdout (or stderr) is gone, stop quietly — no
 * EPIPE stack trace — with the exit code the command has set so far (0 until then).
 */
export function quietOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}

let pipesQuiet = false;

export async function main(argv: string[], spec: CliSpec | null = bakedSpec()): Promise<number> {
  if (!pipesQuiet) {
    pipesQuiet = true;
    quietOnBrokenPipe();
  }
  if (!spec || !answersWithoutEngine(argv)) return realProgram(argv);
  if (isVersion(argv)) {
    process.stdout.write(`${spec.version}\n`);
    return 0;
  }
  const { programFromSpec } = require('./spec') as typeof import('./spec');
  const { completionScript } = require('./completion') as typeof import('./completion');
  const { runProgram } = require('./run') as typeof import('./run');
  const { printVersion } = require('./version-info') as typeof import('./version-info');
  // The rebuilt program parses exactly like the real one; should it reach a command other than
  // completion (it cannot for the command lines above), the real program runs it.
  let handOver = false;
  const program = programFromSpec(spec, (command, args) => {
    if (command === 'completion') process.stdout.write(completionScript(args[0] as Shell, spec));
    else if (command === 'version') printVersion(spec.version, (args[0] as { json?: boolean }).json === true);
    else handOver = true;
  });
  const code = await runProgram(program, argv);
  return handOver ? realProgram(argv) : code;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
