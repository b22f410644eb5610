/**
 * Runs a parsed command line on a program and maps what happened to an exit code: commander's
 * own exits (help, version, bad usage), {@link CliError}s, anything else (exit 1). With --json a
 * failure still prints exactly one JSON document. Shared by the real program (main.ts) and the
 * one the compiled entry rebuilds for help and completion (entry.ts).
 */
import { CommanderError, type Command } from 'commander';
import { CliError, EXIT, jsonWasPrinted, printError, printJson, resetJsonPrinted, wantsJson } from './output';

export async function runProgram(program: Command, argv: string[]): Promise<number> {
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
