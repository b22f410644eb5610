/**
 * S3 connections remembered per bucket (profile, region, endpoint, path-style — the contract's
 * connection holds no secret, so none can be saved), in `connections.json` of the state
 * directory. A missing or broken file means none; writes are atomic (temp file + rename). Without
 * a state directory they live in memory for the session.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { connectionSchema } from '../../../shared/contract';
import type { S3ConnectionOptions, SavedConnection } from '../../../shared/model';

const MAX = 200;
const fileSchema = z.object({
  connections: z.array(z.object({ bucket: z.string().min(1).max(255), connection: connectionSchema, savedAt: z.string() })).max(1000),
});

export class SavedConnections {
  private readonly file: string | null;
  private memory: SavedConnection[] = [];
  private chain: Promise<unknown> = Promise.resolve();

  constructor(stateDir?: string) {
    this.file = stateDir ? path.join(stateDir, 'connections.json') : null;
  }

  async list(): Promise<SavedConnection[]> {
    if (!this.file) return [...this.memory];
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await fs.readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data.connections.slice(0, MAX) : [];
    } catch {
      return [];
    }
  }

  private update(change: (current: SavedConnection[]) => SavedConnection[]): Promise<void> {
    const run = this.chain.then(async () => {
      const next = change(await this.list()).slice(0, MAX);
      if (!this.file) {
        this.memory = next;
        return;
      }
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, JSON.stringify({ connections: next }, null, 2), { mode: 0o600 });
      await fs.rename(tmp, this.file);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  async save(bucket: string, connection: S3ConnectionOptions, at: Date = new Date()): Promise<SavedConnection> {
    const saved: SavedConnection = { bucket, connection: connectionSchema.parse(connection), savedAt: at.toISOString() };
    await this.update((cur) => [saved, ...cur.filter((c) => c.bucket !== bucket)]);
    return saved;
  }

  async forget(bucket: string): Promise<boolean> {
    let found = false;
    await this.update((cur) => {
      found = cur.some((c) => c.bucket === bucket);
      return cur.filter((c) => c.bucket !== bucket);
    });
    return found;
  }
}
