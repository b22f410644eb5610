/**
 * `store-doctor` — the command-line door to the engine. Each command lives in `commands/<name>.ts`
 * and registers itself on the program; this file only wires them and maps errors to exit codes.
 */
import { Command, CommanderError } from 'commander';
import { CliError, EXIT, jsonWasPrinted, printError, printJson, quietOnBrokenPipe, resetJsonPrinted, wantsJson } from './output';

export { quietOnBrokenPipe };
import { registerScan } from './commands/scan';
import { registerDiagnose } from './commands/diagnose';
import { registerRepair } from './commands/repair';
import { registerReplay } from './commands/replay';
import { registerServe } from './commands/serve';
import { registerReport } from './commands/report';

export function buildProgram(): Command {
  const program = new Command('store-doctor')
    .description('Inspect, diagnose, repair and replay Fluent Bit S3 output buffers (store_dir).')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  registerScan(program);
  registerDiagnose(program);
  registerRepair(program);
  registerReplay(program);
  registerReport(program);
  registerServe(program);
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  resetJsonPrinted();
  // --json: scripts get exactly one JSON document on stdout, also when the command fails.
  const fail = (exitCode: number, message: string): number => {
    if (wantsJson(argv) && !jsonWasPrinted()) printJson({ error: { exitCode, message } });
    return exitCode;
  };
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.OK;
      // `store-doctor` with no command prints the help as an error (exit code 1): bad usage.
      if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      // commander already printed "error: …" and the usage on stderr
      return fail(EXIT.USAGE, err.message.replace(/^error: /, ''));
    }
    if (err instanceof CliError) {
      printError(err.message);
      return fail(err.exitCode, err.message);
    }
    const e = err as Error;
    const message = e?.message ?? String(err);
    printError(message);
    return fail(EXIT.FAILED, message);
  }
}

// `tsx electron/cli/main.ts …` runs it directly; bin/store-doctor.cjs calls runCli itself.
if (require.main === module) {
  quietOnBrokenPipe();
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
