/**
 * Accessibility check with axe-core (pinned in package.json) run in the page through
 * playwright-core: the script is evaluated over the DevTools protocol (the page's CSP forbids
 * inline scripts, and evaluation does not need one), then `axe.run` on the whole document.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeIssue {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Violations of axe's WCAG 2.x A/AA rules and best practices, serious or critical only. */
export async function seriousViolations(page: Page): Promise<AxeIssue[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' — ' + (n.failureSummary || '').split('\\n').slice(1, 2).join('')) })))`)) as AxeIssue[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
