/** `store-doctor completion bash|zsh`: print a shell completion script for this version's commands. */
import { Argument, type Command } from 'commander';
import { completionScript, SHELLS, type Shell } from '../completion';
import { describeProgram } from '../spec';

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script (bash or zsh) for every command and option')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(SHELLS))
    .action((shell: Shell) => {
      process.stdout.write(completionScript(shell, describeProgram(program)));
    });
}
