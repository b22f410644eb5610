/** Writes generated node reports (./node-reports.ts) into a folder, as the fleet tests read them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { NodeReport } from '../../shared/fleet';
import { nodeReport } from './node-reports';

/** Writes `n` reports into `dir` (half as `<node>.json`, half as `<node>/report.json`) and returns them. */
export function writeNodeReports(dir: string, n: number): NodeReport[] {
  const out: NodeReport[] = [];
  for (let i = 0; i < n; i++) {
    const r = nodeReport(i);
    out.push(r);
    if (i % 2) {
      mkdirSync(path.join(dir, r.node), { recursive: true });
      writeFileSync(path.join(dir, r.node, 'report.json'), JSON.stringify(r));
    } else writeFileSync(path.join(dir, `${r.node}.json`), JSON.stringify(r));
  }
  return out;
}
