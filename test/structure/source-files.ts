/** The source files under `dir` that the structure tests read: `.ts`/`.tsx`, no `.d.ts` (a declaration imports nothing). */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
