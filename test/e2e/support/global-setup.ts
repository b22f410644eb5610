/** e2e globalSetup: build the renderer into out/renderer (what the host serves) and check Chromium is there. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { CHROMIUM_PATH } from './browser';

export default async function setup(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium" (or run "npm test", which installs it).`);
  }
  if (process.env.E2E_SKIP_BUILD !== '1') {
    await build({ configFile: path.resolve(__dirname, '../../../vite.renderer.config.ts'), logLevel: 'warn' });
  }
}
