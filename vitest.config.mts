import { defineConfig } from 'vitest/config';

// Unit and integration tests (engine, CLI, host, renderer components).
// S3 tests get a real Ceph RGW on 127.0.0.1 from test/support/s3-global-setup.ts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // test/package: its own step (vitest.package.config.mts); test/fluent-bit/*.fb.test.ts run real
    // Fluent Bit binaries: their own config (vitest.fluent-bit.config.mts).
    exclude: ['test/e2e/**', 'test/package/**', 'test/fluent-bit/**/*.fb.test.ts', 'node_modules/**'],
    environment: 'node',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    globalSetup: ['test/support/cli-build-setup.ts', 'test/support/s3-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
