/**
 * The app as an operator's console, first contact and the support case (issue 12, items 1–5), in
 * Chromium against the real engine on real Fluent Bit fixtures. Each item leaves a screenshot
 * under test-results/e2e/ (item01-… to item05-…).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startHost, type RunningHost, PROJECT_ROOT } from '../../electron/host';
import { ensureUiBuilt } from '../../electron/host/ensure-ui';
import { FIXTURES, launchChromium, newPage, screenshot, tempDir } from './support/browser';
import { go, loadConfigFromChecklist, openPath, toOpenView } from './support/ui';

const SCENARIO = path.join(FIXTURES, 'index-reset');
const TAR = path.join(SCENARIO, 'store-during-run2.tar.gz');
const LISTING = path.join(SCENARIO, 's3api-list-objects-v2.json');
const CONFIG = path.join(SCENARIO, 'fluent-bit.conf');

let browser: Browser;
let tmp: { dir: string; remove: () => Promise<void> };
const hosts: RunningHost[] = [];

async function host(opts: Parameters<typeof startHost>[0] = {}): Promise<RunningHost> {
  const h = await startHost({ stateDir: path.join(tmp.dir, `state-${hosts.length}`), ...opts });
  hosts.push(h);
  return h;
}

beforeAll(async () => {
  tmp = await tempDir('console1');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.close();
  await tmp?.remove();
});

describe('first contact and the support case', () => {
  it('item 1: `serve <path>` opens the store before the page loads: the UI lands on its Overview', async () => {
    const h = await host({ openPath: TAR });
    const { page, errors } = await newPage(browser);
    await page.goto(h.url);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect(page.getByTestId('store-name').textContent()).resolves.toBe(TAR);
    await page.getByTestId('finding').first().waitFor();
    expect(await page.getByText('No store open').count()).toBe(0);
    await screenshot(page, 'item01-serve-path-lands-on-overview');
    // the demo, as `npm start` opens it
    const demo = await host({ openPath: 'demo' });
    await page.goto(demo.url);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect(page.getByTestId('store-name').textContent()).resolves.toMatch(/demo\/store-during-run2\.tar\.gz$/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('item 2: `store-doctor serve` where the UI was not built builds it once, says so on stderr, and serves it', async () => {
    // the CLI as it ships, serving a UI folder the way a fresh checkout's out/renderer starts: empty
    // @ts-expect-error -- a plain .mjs build script without type declarations
    const { buildCli } = (await import('../../scripts/build-cli.mjs')) as { buildCli: (o?: { quiet?: boolean }) => Promise<unknown> };
    await buildCli({ quiet: true });
    const ui = path.join(tmp.dir, 'fresh-renderer');
    const lines: string[] = [];
    expect(ensureUiBuilt(ui, PROJECT_ROOT, { build: true, log: (l) => lines.push(l) }).state).toBe('built');
    expect(lines[0]).toMatch(/^store-doctor: the UI is not built yet: building it once into .*fresh-renderer \(vite build\)…$/);
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'store-doctor.cjs'), 'serve', 'demo', '--renderer', ui], {
      env: { ...process.env, STORE_DOCTOR_STATE_DIR: path.join(tmp.dir, 'serve-state') },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (b) => {
          out += b;
          if (out.includes('\n')) resolve(out.split('\n')[0]);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const { page, errors } = await newPage(browser);
      await page.goto(url);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await screenshot(page, 'item02-serve-builds-and-serves-the-ui');
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('item 3: the Overview checklist loads the config and the listing by host path in place, then shows the diagnosis', async () => {
    const h = await host();
    const { page, errors } = await newPage(browser);
    await page.goto(h.url);
    await toOpenView(page);
    await openPath(page, TAR);
    const checks = page.getByTestId('checks');
    await expect(checks.getByTestId('check-config').textContent()).resolves.toContain('✗ Config not loaded');
    await loadConfigFromChecklist(page, CONFIG);
    await checks.getByTestId('check-listing-0').waitFor();
    await expect(checks.getByTestId('check-listing-0').textContent()).resolves.toContain('✗ Bucket evidence: not listed');
    await checks
      .getByTestId('check-listing-0')
      .getByLabel(/path on the Store Doctor host/)
      .fill(LISTING);
    await checks.getByTestId('check-listing-0').getByRole('button', { name: 'Read' }).click();
    await page.getByText('✓ Bucket evidence: full listing (every key the key format can reach)').waitFor();
    // back on the diagnosis, which now compares the index with the bucket
    await expect(page.getByRole('heading', { name: 'Overview' }).count()).resolves.toBe(1);
    await page.locator('[data-code="INDEX_BEHIND_BUCKET"]').waitFor();
    await expect(checks.getByTestId('check-versions-0').textContent()).resolves.toContain('✗ Versions not listed');
    await expect(checks.getByTestId('check-multipart-0').textContent()).resolves.toContain('✗ Multipart uploads not listed');
    await screenshot(page, 'item03-overview-checklist');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('item 4: an archive is refused at step 1; a writable demo copy in a temp folder is repaired and undone', async () => {
    const h = await host();
    const { page, errors } = await newPage(browser);
    await page.goto(h.url);
    await toOpenView(page);
    await page.getByRole('button', { name: 'Open the demo store' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await go(page, 'Repair');
    const refusal = page.getByTestId('archive-refusal');
    await expect(refusal.textContent()).resolves.toMatch(/Refused: .*store-during-run2\.tar\.gz is an archive/);
    expect(await page.getByRole('button', { name: 'Plan (dry run)' }).count()).toBe(0);
    await expect(page.locator('.wizard li[aria-current=step]').textContent()).resolves.toBe('Choose');
    await screenshot(page, 'item04-archive-refused-at-step-1');
    await refusal.getByRole('button', { name: 'Open a writable copy of the demo' }).click();
    const banner = page.getByTestId('demo-copy');
    await banner.waitFor();
    const copy = (await banner.locator('code').first().textContent())!;
    expect(copy).toMatch(/store-doctor-demo-[^/]+\/store$/);
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.getByRole('heading', { name: /^Plan:/ }).waitFor();
    // the plan has no contradiction left: no refusal, the write is the seq_index file of the copy
    expect(await page.getByTestId('refusals').count()).toBe(0);
    await expect(page.getByTestId('diff').locator('.diff-before').textContent()).resolves.toBe('9');
    await page.getByLabel('Bucket name to confirm').fill('fb-index-reset');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByTestId('apply-result').textContent()).resolves.toContain('Applied — verified');
    const seq = path.join(copy, 'fb-index-reset', 'sequence', 'index_metadata', 'seq_index_0');
    expect(await readFile(seq, 'utf8')).toBe('12');
    await screenshot(page, 'item04-demo-copy-repaired');
    await page.getByRole('button', { name: 'Undo this change…' }).click();
    // putting 9 back is below the listed index 11 (issue 18): refused, naming the keys at risk, until forced
    await page.getByRole('heading', { name: 'Refused plan: Put back seq_index_0: 12 → 9' }).waitFor();
    await expect(page.getByTestId('keys-at-risk').textContent()).resolves.toMatch(/seq_index_0 would be put back to 9, but \$INDEX 11 is already used/);
    expect(await page.getByRole('button', { name: 'Undo', exact: true }).count()).toBe(0);
    await page.getByLabel(/Force/).check();
    await page.getByRole('heading', { name: 'Plan: Put back seq_index_0: 12 → 9' }).waitFor();
    await page.getByLabel('Bucket name to confirm').fill('fb-index-reset');
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page
      .getByTestId('apply-result')
      .getByText(/Undid repair-index/)
      .waitFor();
    expect(await readFile(seq, 'utf8')).toBe('9');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('item 5: one sentence per fact — fate of a truncated chunk, overwrite-risk label, one SHARED_STORE_ROOT, index actions only with $INDEX', async () => {
    const h = await host();
    const dir = path.join(tmp.dir, 'five');
    execFileSync('mkdir', ['-p', dir]);
    execFileSync('tar', ['-xzf', TAR, '-C', dir]);
    const root = path.join(dir, 'store', 'fb-index-reset');
    const stream = execFileSync('ls', [root])
      .toString()
      .split('\n')
      .find((n) => n.startsWith('2026-'))!;
    const victim = execFileSync('ls', [path.join(root, stream)])
      .toString()
      .split('\n')
      .filter(Boolean)[0];
    await truncate(path.join(root, stream, victim), 100);
    // two outputs share the bucket; the second writes $UUID keys without $INDEX; the first's keys are /$TAG/$INDEX
    const conf = (await readFile(CONFIG, 'utf8'))
      .replace(/s3_key_format\s+\S+/, 's3_key_format    /$TAG/$INDEX')
      .replace(/store_dir\s+\S+/, `store_dir        ${path.join(dir, 'store')}`);
    const second = `\n[OUTPUT]\n    name             s3\n    alias            status\n    match            none\n    bucket           fb-index-reset\n    store_dir        ${path.join(dir, 'store')}\n    s3_key_format    /status/$UUID.json\n`;
    await writeFile(path.join(dir, 'fluent-bit.conf'), conf + second);
    const listing = {
      Contents: Array.from({ length: 12 }, (_, i) => ({
        Key: `app.web/${i}`,
        LastModified: `2026-11-29T18:3${Math.floor(i / 6)}:${String(10 + i).padStart(2, '0')}+00:00`,
        Size: 100,
        ETag: '"e"',
      })),
    };
    await writeFile(path.join(dir, 'listing.json'), JSON.stringify(listing));
    const { page, errors } = await newPage(browser);
    await page.goto(h.url);
    await toOpenView(page);
    await openPath(page, path.join(dir, 'store'));
    const checks = page.getByTestId('checks');
    await loadConfigFromChecklist(page, path.join(dir, 'fluent-bit.conf'));
    await checks
      .getByTestId('check-listing-0')
      .getByLabel(/path on the Store Doctor host/)
      .fill(path.join(dir, 'listing.json'));
    await checks.getByTestId('check-listing-0').getByRole('button', { name: 'Read' }).click();
    await page.locator('[data-code="OVERWRITE_RISK"]').waitFor();
    await expect(page.locator('[data-code="OVERWRITE_RISK"] .finding-summary').textContent()).resolves.toContain('(same tag, at any time)');
    expect(await page.locator('[data-code="SHARED_STORE_ROOT"]').count()).toBe(1);
    await expect(page.locator('[data-code="NO_EVIDENCE"] .finding-summary').first().textContent()).resolves.toMatch(/^status \(id 1\): no bucket evidence/);
    await screenshot(page, 'item05-one-sentence-per-fact');
    // the fate Overview, Inspector and scan give the truncated chunk is the same sentence
    const fate = 'rejected at load; never uploaded and left on disk while its stream holds a valid chunk';
    await page.getByText(`1 × ${fate}`).waitFor();
    await go(page, 'Chunks');
    await page.locator(`[data-testid=chunk-row][data-path="${stream}/${victim}"]`).click();
    await expect(page.getByTestId('header-fields').textContent()).resolves.toContain(fate);
    // `scan --json` (exit 3: it found a damaged chunk) says the same
    const run = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'store-doctor.cjs'), 'scan', path.join(dir, 'store'), '--json'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(3);
    const scan = JSON.parse(run.stdout);
    const chunk = scan.roots[0].streams
      .flatMap((s: { chunks: { path: string; fluentBitAction: string }[] }) => s.chunks)
      .find((c: { path: string }) => c.path === `${stream}/${victim}`);
    expect(chunk.fluentBitAction).toBe(fate);
    // index actions are offered for the $INDEX output only; the confirm phrase names bucket/output
    await go(page, 'Repair');
    const outputs = await page.getByLabel('Output').locator('option').allTextContents();
    expect(outputs).toEqual([expect.stringMatching(/^s3\.0 → fb-index-reset/)]);
    await expect(page.getByText(/Not offered for status: no \$INDEX in its key format/).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.getByText('Type').locator('code', { hasText: 'fb-index-reset/s3.0' }).waitFor();
    await screenshot(page, 'item05-index-actions-only-with-index');
    // a truncated archive is STORE_UNREADABLE, never CHUNK_DAMAGED
    const src = await readFile(TAR);
    await writeFile(path.join(dir, 'cut.tar.gz'), src.subarray(0, Math.floor(src.length * 0.6)));
    await go(page, 'Open');
    await openPath(page, path.join(dir, 'cut.tar.gz'));
    await page.locator('[data-code="STORE_UNREADABLE"]').waitFor();
    expect(await page.locator('[data-code="CHUNK_DAMAGED"]').count()).toBe(0);
    await screenshot(page, 'item05-truncated-archive');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
