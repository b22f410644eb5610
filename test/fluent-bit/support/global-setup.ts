/**
 * vitest globalSetup of the Fluent Bit suite: print which binaries run (or why none do), and make
 * sure there is an S3 server: the shared RGW when it answers, otherwise a private one for this run
 * (started only when there are binaries to run; stopped at teardown). Its connection reaches the
 * workers through the FB_S3_* environment variables.
 */
import { discoverFluentBit } from './binaries';
import { missingRgwBinaries, RGW_APT_COMMAND, readHealthyRgw, startRgw, type RgwState } from '../../support/rgw';

function expose(s: RgwState): void {
  process.env.FB_S3_ENDPOINT = s.endpoint;
  process.env.FB_S3_REGION = s.region;
  process.env.FB_S3_ACCESS_KEY_ID = s.accessKeyId;
  process.env.FB_S3_SECRET_ACCESS_KEY = s.secretAccessKey;
}

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const d = discoverFluentBit();
  if (!d.binaries.length) {
    process.stderr.write(`fluent-bit suite: SKIPPED, no Fluent Bit binaries: ${d.skipReason}\n`);
    return;
  }
  process.stderr.write(`fluent-bit suite: ${d.binaries.map((b) => `${b.version} (${b.path})`).join(', ')}\n`);
  if (d.skipReason) process.stderr.write(`fluent-bit suite: also: ${d.skipReason}\n`);
  for (const b of d.broken) process.stderr.write(`fluent-bit suite: cannot run ${b.path}: ${b.error}\n`);
  const shared = await readHealthyRgw();
  if (shared) {
    expose(shared);
    return;
  }
  const missing = missingRgwBinaries();
  if (missing.length) throw new Error(`the Fluent Bit suite needs Ceph RGW; missing ${missing.join(', ')}. Install: sudo ${RGW_APT_COMMAND}`);
  const server = await startRgw({ log: (l) => process.stderr.write(`${l}\n`) });
  expose(server);
  return () => server.stop();
}
