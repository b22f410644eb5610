/** `store-doctor version [--json]`: the version, the Node runtime, the platform and the build's commit. */
import type { Command } from 'commander';
import { printVersion } from '../version-info';

export function registerVersion(program: Command): void {
  program
    .command('version')
    .description('Print the version, the Node runtime, the platform and the commit this build was made from')
    .option('--json', 'one JSON object {version, node, platform, commit} (docs/version.schema.json)')
    .action((opts: { json?: boolean }) => printVersion(program.version() ?? '0.0.0', opts.json === true));
}
