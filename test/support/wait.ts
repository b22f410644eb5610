/**
 * Waiting for a state, never for a time: `until` polls a condition (sync or async) and returns its
 * first truthy value. The timeout is a backstop for a hang (it fails the test with what it waited
 * for), not a latency assertion.
 */
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Maybe<T> = T | null | undefined | false;

export async function until<T>(what: string, fn: () => Maybe<T> | Promise<Maybe<T>>, timeoutMs = 20_000, everyMs = 10): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The classic config of the `crash-during-run` fixture's output (bucket fb-crash, `$INDEX` keys). */
export function crashFixtureConfig(storeDir: string, file: string): string {
  writeFileSync(
    file,
    `[OUTPUT]\n    name s3\n    match *\n    bucket fb-crash\n    region us-east-1\n    store_dir ${storeDir}\n    s3_key_format /$TAG/%Y/%m/%d/$INDEX\n    use_put_object On\n`,
  );
  return file;
}

/** This process's open descriptors that point into `dir` (a leak check that other work in the worker cannot disturb). */
export function fdsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile (the listing's own descriptor)
    }
    if (target === dir || target.startsWith(dir + '/')) out.push(`${fd} → ${target}`);
  }
  return out;
}
