/** Small file-system helpers shared by the repair modules. */
import { promises as fsp } from 'node:fs';

export async function pathExists(p: string): Promise<boolean> {
  return fsp.lstat(p).then(
    () => true,
    () => false,
  );
}
