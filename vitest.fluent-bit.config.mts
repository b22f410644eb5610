import { defineConfig } from 'vitest/config';

// The real-Fluent-Bit suite (test/fluent-bit/): every scenario against every binary found in
// FLUENT_BIT_DIR (or FLUENT_BIT_BIN), filtered by FLUENT_BIT_VERSIONS. `npm run test:fluent-bit`.
// Without binaries every test is reported as skipped with the reason.
export default defineConfig({
  test: {
    include: ['test/fluent-bit/**/*.fb.test.ts'],
    environment: 'node',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    globalSetup: ['test/fluent-bit/support/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Mostly waiting on Fluent Bit's timers, not CPU: three files at a time on 2 cores.
    maxWorkers: 3,
  },
});
