/**
 * Fixture harness: a real snapshot from any Fluent Bit binary.
 *
 *   npx tsx test/fluent-bit/harness.ts <scenario> --bin <fluent-bit> --out <dir> [--then-bin <fluent-bit>]
 *
 * Scenarios: index-reset, crash-during-run, multipart-inflight, multipart-two-tags,
 * buffered-backlog, downgrade-quarantine (run 1 by --bin, run 2 by --then-bin on the same store).
 * Needs the shared S3 test server (`npx tsx test/support/rgw.ts start`). Writes into --out: store
 * tars, `aws s3api` listings, configs, Fluent Bit's log, harness.log, expected.json and a README
 * saying exactly how it was made. The convention for the project's fixtures:
 * --out test/fixtures/fluent-bit-real/v<version>/<scenario>.
 */
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { readVersion } from './support/binaries';
import { Lab } from './support/lab';
import { reapAll } from './support/process';
import { Recorder } from './harness/recorder';
import { SCENARIOS } from './harness/scenarios';

function usage(msg?: string): never {
  if (msg) process.stderr.write(`harness: ${msg}\n`);
  process.stderr.write(
    `usage: npx tsx test/fluent-bit/harness.ts <${Object.keys(SCENARIOS).join('|')}> --bin <fluent-bit> --out <dir> [--then-bin <fluent-bit>]\n`,
  );
  process.exit(2);
}

function parse(argv: string[]) {
  const [scenario, ...rest] = argv;
  if (!scenario || !(scenario in SCENARIOS)) usage(scenario ? `unknown scenario ${scenario}` : undefined);
  const opts: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const k = rest[i];
    if (!['--bin', '--out', '--then-bin'].includes(k) || rest[i + 1] === undefined) usage(`bad option ${k}`);
    opts[k.slice(2)] = rest[i + 1];
  }
  if (!opts.bin || !opts.out) usage('--bin and --out are required');
  return { scenario, bin: path.resolve(opts.bin), out: path.resolve(opts.out), thenBin: opts['then-bin'] ? path.resolve(opts['then-bin']) : undefined };
}

async function main(): Promise<void> {
  const a = parse(process.argv.slice(2));
  if (existsSync(a.out) && readdirSync(a.out).length) usage(`${a.out} is not empty (a fixture is never overwritten in place)`);
  const version = readVersion(a.bin);
  const thenBin = a.thenBin ? { path: a.thenBin, version: readVersion(a.thenBin) } : undefined;
  const fb = { version, major: Number(version.split('.')[0]), path: a.bin };
  const sc = SCENARIOS[a.scenario];
  if (sc.needsThenBin && !thenBin) usage(`${a.scenario} needs --then-bin <the other fluent-bit>`);
  const lab = await Lab.open(fb, a.scenario, { versioning: sc.versioning });
  const rec = new Recorder(lab, a.scenario, a.out);
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  const command = `npx tsx test/fluent-bit/harness.ts ${a.scenario} --bin ${a.bin} --out ${rel(a.out)}${thenBin ? ` --then-bin ${thenBin.path}` : ''}`;
  try {
    const result = await sc.run({ rec, thenBin });
    rec.finish({ ...result, command });
    process.stdout.write(`harness: ${a.scenario} with Fluent Bit ${version} → ${a.out}\n`);
    for (const [k, v] of Object.entries(result.observations)) process.stdout.write(`  ${k}: ${JSON.stringify(v)}\n`);
  } finally {
    await reapAll();
    await lab.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`harness: ${(e as Error).stack ?? String(e)}\n`);
  void reapAll().then(() => process.exit(1));
});
