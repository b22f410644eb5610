/**
 * vitest globalSetup: compiles the CLI (scripts/build-cli.mjs, about half a second) before the
 * tests, so every test that runs `bin/store-doctor.cjs` runs what ships — built from the sources
 * as they are now, never a stale out/cli/.
 */
export default async function setup(): Promise<void> {
  // @ts-expect-error -- a plain .mjs build script without type declarations
  const { buildCli } = (await import('../../scripts/build-cli.mjs')) as { buildCli: (o?: { quiet?: boolean }) => Promise<unknown> };
  await buildCli({ quiet: true });
}
