/**
 * Recently opened stores, kept as a small JSON file in the state directory. A missing or broken
 * file means "no recent stores"; writes are atomic (temp file + rename) so a crash never leaves
 * a half-written list. This is the app's own state, never a store.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const MAX = 20;
const fileSchema = z.object({
  recent: z.array(z.object({ path: z.string().min(1).max(4096), openedAt: z.string() })).max(200),
});

export type RecentEntry = z.infer<typeof fileSchema>['recent'][number];

export class RecentStores {
  private readonly file: string | null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(stateDir?: string) {
    this.file = stateDir ? path.join(stateDir, 'recent-stores.json') : null;
  }

  async list(): Promise<RecentEntry[]> {
    if (!this.file) return [];
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await fs.readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data.recent.slice(0, MAX) : [];
    } catch {
      return [];
    }
  }

  /** Put `p` first in the list (dropping an older entry for the same path). */
  add(p: string, at: Date = new Date()): Promise<void> {
    const run = this.chain.then(async () => {
      if (!this.file) return;
      const current = await this.list();
      const next = [{ path: p, openedAt: at.toISOString() }, ...current.filter((e) => e.path !== p)].slice(0, MAX);
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, JSON.stringify({ recent: next }, null, 2), { mode: 0o600 });
      await fs.rename(tmp, this.file);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }
}
