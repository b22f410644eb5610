/**
 * `store-doctor serve [path] [--port N]`: the loopback host for the UI in a browser. Prints exactly
 * one line — the URL with the session token — as soon as it listens, opens the store (a folder, an
 * archive, or `demo`) meanwhile (the page's requests wait for it: the browser loads the page while
 * the store is read), and serves until SIGINT/SIGTERM. A path that does not exist is refused
 * before the URL is printed; a store that cannot be opened stops the host with its error.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { extractSeaAssets } from '../sea';
import { CliError, EXIT } from '../output';

export interface ServeOptions {
  port?: string;
  renderer?: string;
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 65535) throw new CliError(`--port: "${text}" is not a port number (1-65535)`, EXIT.USAGE);
  return n;
}

export async function runServe(target: string | undefined, opts: ServeOptions): Promise<void> {
  const port = parsePort(opts.port);
  const { startHost, DEFAULT_RENDERER_DIR, PROJECT_ROOT } = await import('../../host');
  const { ensureUiBuilt } = await import('../../host/ensure-ui');
  // The single executable serves the UI and the demo store it carries (written to a private temp folder).
  const embedded = extractSeaAssets();
  // A checkout whose UI was never built builds it once (one line on stderr); a folder given with --renderer is only checked.
  if (!embedded) ensureUiBuilt(opts.renderer ?? DEFAULT_RENDERER_DIR, PROJECT_ROOT, { build: opts.renderer === undefined });
  if (target !== undefined && target !== 'demo') {
    try {
      fs.statSync(path.resolve(target));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(`${target}: ${code === 'ENOENT' ? 'no such file or directory' : ((err as Error).message ?? String(err))}`, EXIT.USAGE);
    }
  }
  let host;
  try {
    host = await startHost({
      port,
      openPath: target,
      openInBackground: true,
      rendererDir: opts.renderer ?? embedded?.renderer,
      ...(embedded ? { demoDir: embedded.demo } : {}),
    });
  } catch (err) {
    embedded?.remove();
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new CliError(`port ${port} is already in use on 127.0.0.1`, EXIT.FAILED);
    throw new CliError(e.message ?? String(err), EXIT.USAGE);
  }
  process.stdout.write(`${host.url}\n`);
  let failure: unknown = null;
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      host.close().finally(() => {
        embedded?.remove();
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    host.opened.catch((err: unknown) => {
      failure = err;
      stop();
    });
  });
  if (failure) throw new CliError((failure as Error)?.message ?? String(failure), EXIT.USAGE);
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the Store Doctor UI on 127.0.0.1 (open the printed URL in a browser, e.g. through an SSH tunnel)')
    .argument('[path]', 'store to open first: a store_dir, a bucket root, a .tar/.tar.gz of one, or "demo"')
    .option('--port <n>', 'port on 127.0.0.1 (default: a random free port)')
    .option('--renderer <dir>', 'built renderer to serve (default: out/renderer)')
    .action(async (target: string | undefined, opts: ServeOptions) => runServe(target, opts));
}
