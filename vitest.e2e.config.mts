import { defineConfig } from 'vitest/config';

// End-to-end tests of the UI in Debian Chromium (playwright-core) against the loopback host
// (electron/host) serving the built renderer with the real engine. `npx vitest run --config vitest.e2e.config.mts`.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    globalSetup: ['test/e2e/support/global-setup.ts', 'test/support/s3-global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
