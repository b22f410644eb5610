/**
 * Child of archive-entries.test.ts: scans one archive with scanStore (as `store-doctor scan` does)
 * and prints one JSON line { ok, error, maxRssMb } — its peak RSS is the scan's alone.
 */
import { scanStore } from '../../../electron/engine/store';

async function main(): Promise<void> {
  let ok = false;
  let error: string | null = null;
  try {
    await scanStore(process.argv[2], { records: true });
    ok = true;
  } catch (err) {
    error = (err as Error).message;
  }
  process.stdout.write(JSON.stringify({ ok, error, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n');
}

void main();
