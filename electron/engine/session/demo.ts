/**
 * The built-in demo: `demo/demo.json` names a real store archive, its Fluent Bit config and S3
 * listings, all next to it. Read-only: archives are never written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { EngineError } from './errors';

const manifestSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  store: z.string().min(1),
  config: z.string().min(1).optional(),
  listings: z.array(z.string().min(1)).default([]),
  outputId: z.number().int().min(0).optional(),
});

export interface DemoSpec {
  title: string;
  storePath: string;
  configPath: string | null;
  listingPaths: string[];
  outputId: number | undefined;
}

function inside(dir: string, name: string): string {
  const p = path.resolve(dir, name);
  if (path.dirname(p) !== path.resolve(dir))
    throw new EngineError('failed', `demo.json: "${name}" must be a file next to demo.json`, path.join(dir, 'demo.json'));
  return p;
}

export function demoAvailable(demoDir: string | undefined): boolean {
  return !!demoDir && fs.existsSync(path.join(demoDir, 'demo.json'));
}

export function readDemo(demoDir: string | undefined): DemoSpec {
  if (!demoDir || !demoAvailable(demoDir)) throw new EngineError('not-found', 'the built-in demo is not available in this build');
  const file = path.join(demoDir, 'demo.json');
  let parsed: z.infer<typeof manifestSchema>;
  try {
    parsed = manifestSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (err) {
    throw new EngineError('failed', `demo.json: not a valid demo manifest (${(err as Error).message.split('\n')[0]})`, file);
  }
  return {
    title: parsed.title,
    storePath: inside(demoDir, parsed.store),
    configPath: parsed.config ? inside(demoDir, parsed.config) : null,
    listingPaths: parsed.listings.map((l) => inside(demoDir, l)),
    outputId: parsed.outputId,
  };
}
