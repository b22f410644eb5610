/** Re-exports the one fixture helper (test/support/fixtures.ts) for the repair tests. */
export { extractFixture, FIXTURES, tempDir, type Extracted } from '../../support/fixtures';
