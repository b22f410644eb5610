/**
 * The command line's shape as data: every command, argument and option with its help text.
 *
 * The build takes it from the real program ({@link describeProgram}) and bakes it into the
 * compiled entry, which rebuilds a program with the same help from it ({@link programFromSpec})
 * — so `--help`, `<command> --help` and `completion` answer without loading the engine. Shell
 * completion is generated from the same data. Only commander here: no engine, no Node modules.
 */
import { Argument, Command, Option } from 'commander';
import { addExamples } from './examples';

export interface OptionSpec {
  flags: string;
  description: string;
  defaultValue?: unknown;
  defaultValueDescription?: string;
  choices?: string[];
  hidden?: boolean;
}

export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  description: string;
  choices?: string[];
}

export interface CommandSpec {
  name: string;
  description: string;
  arguments: ArgumentSpec[];
  options: OptionSpec[];
}

export interface CliSpec {
  name: string;
  description: string;
  version: string;
  options: OptionSpec[];
  commands: CommandSpec[];
}

const VERSION_FLAGS = '-V, --version';

function optionSpec(o: Option): OptionSpec {
  return {
    flags: o.flags,
    description: o.description,
    ...(o.defaultValue !== undefined ? { defaultValue: o.defaultValue } : {}),
    ...(o.defaultValueDescription !== undefined ? { defaultValueDescription: o.defaultValueDescription } : {}),
    ...(o.argChoices ? { choices: [...o.argChoices] } : {}),
    ...(o.hidden ? { hidden: true } : {}),
  };
}

function argumentSpec(a: Argument): ArgumentSpec {
  return {
    name: a.name(),
    required: a.required,
    variadic: a.variadic,
    description: a.description,
    ...(a.argChoices ? { choices: [...a.argChoices] } : {}),
  };
}

/** The shape of a built program (what the compiled entry needs for help and completion). */
export function describeProgram(program: Command): CliSpec {
  return {
    name: program.name(),
    description: program.description(),
    version: program.version() ?? '0.0.0',
    options: program.options.filter((o) => o.flags !== VERSION_FLAGS).map(optionSpec),
    commands: program.commands.map((c) => ({
      name: c.name(),
      description: c.description(),
      arguments: c.registeredArguments.map(argumentSpec),
      options: c.options.map(optionSpec),
    })),
  };
}

function toOption(s: OptionSpec): Option {
  const o = new Option(s.flags, s.description);
  if (s.defaultValue !== undefined) o.default(s.defaultValue, s.defaultValueDescription);
  if (s.choices) o.choices(s.choices);
  if (s.hidden) o.hideHelp();
  return o;
}

function toArgument(s: ArgumentSpec): Argument {
  const name = `${s.name}${s.variadic ? '...' : ''}`;
  const a = new Argument(s.required ? `<${name}>` : `[${name}]`, s.description);
  if (s.choices) a.choices(s.choices);
  return a;
}

/** The program-wide settings both the real program and the one rebuilt from a spec use. */
export function configureProgram(program: Command, version: string): Command {
  return program.version(version).showHelpAfterError().exitOverride();
}

/**
 * A program with the same commands, options and help as the one `spec` was taken from; every
 * command runs `action(name)` (the compiled entry hands the command line to the real program).
 */
export function programFromSpec(spec: CliSpec, action: (command: string, args: unknown[]) => void | Promise<void>): Command {
  const program = configureProgram(new Command(spec.name).description(spec.description), spec.version);
  for (const o of spec.options) program.addOption(toOption(o));
  for (const c of spec.commands) {
    const cmd = program.command(c.name).description(c.description);
    for (const a of c.arguments) cmd.addArgument(toArgument(a));
    for (const o of c.options) cmd.addOption(toOption(o));
    cmd.action((...args: unknown[]) => action(c.name, args));
  }
  return addExamples(program);
}
