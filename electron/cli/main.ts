/**
 * `store-doctor` — the command-line door to the engine. Each command lives in `commands/<name>.ts`
 * and registers itself on the program; this file only wires them and maps errors to exit codes.
 */
import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './output';
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
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.OK;
      return EXIT.USAGE;
    }
    if (err instanceof CliError) {
      process.stderr.write(`store-doctor: ${err.message}\n`);
      return err.exitCode;
    }
    const e = err as Error;
    process.stderr.write(`store-doctor: ${e?.message ?? String(err)}\n`);
    return EXIT.FAILED;
  }
}

// `tsx electron/cli/main.ts …` runs it directly; bin/store-doctor.cjs calls runCli itself.
if (require.main === module) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
