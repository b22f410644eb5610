import { defineConfig } from 'vitest/config';

// The shipped CLI: the npm package (npm pack + offline install) and the single executable
// (npm run package:cli). Its own step of `npm test`, after the unit tests: packing rebuilds
// out/cli and out/renderer, which other tests use. `npx vitest run --config vitest.package.config.mts`.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    environment: 'node',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // one at a time: both build into out/
    maxWorkers: 1,
    fileParallelism: false,
  },
});
