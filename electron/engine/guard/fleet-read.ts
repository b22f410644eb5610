/**
 * Read a folder of node reports (`/report.json` of each guard, collected by whatever means): every
 * `*.json` file in it, and `<sub>/report.json` one level down (one folder per node). Each file is
 * hostile input: regular files only (never followed), at most 4 MiB each and MAX_FLEET_BYTES in
 * all (read one at a time), parsed and validated by the one parser (shared/fleet.ts); what is not a
 * node report or not read is listed with why, never fatal.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import {
  MAX_FLEET_BYTES,
  MAX_FLEET_REPORTS,
  MAX_REPORT_BYTES,
  parseNodeReport,
  summarizeFleet,
  type FleetSummary,
  type NodeReport,
} from '../../../shared/fleet';
import { safeReadFile } from '../store/safe-read';

export class FleetFolderError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'invalid-input' | 'failed',
  ) {
    super(message);
    this.name = 'FleetFolderError';
  }
}

async function candidates(folder: string, skipped: FleetSummary['skipped']): Promise<string[]> {
  const entries = await fsp.readdir(folder, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.name.startsWith('.')) continue;
    if (e.isSymbolicLink() && e.name.endsWith('.json')) skipped.push({ file: e.name, error: 'is a symlink: not followed' });
    else if (e.isFile() && e.name.endsWith('.json')) out.push(e.name);
    else if (e.isDirectory()) {
      const inner = path.join(e.name, 'report.json');
      if (
        await fsp.lstat(path.join(folder, inner)).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        out.push(inner);
    }
    if (out.length > MAX_FLEET_REPORTS) break;
  }
  return out;
}

export async function readFleetFolder(folder: string): Promise<FleetSummary> {
  const abs = path.resolve(folder);
  const st = await fsp.stat(abs).catch((err: NodeJS.ErrnoException) => {
    throw new FleetFolderError(`${abs}: ${err.code === 'ENOENT' ? 'no such folder' : err.message}`, err.code === 'ENOENT' ? 'not-found' : 'failed');
  });
  if (!st.isDirectory()) throw new FleetFolderError(`${abs}: not a folder (give the folder that holds the report.json files)`, 'invalid-input');
  const skipped: FleetSummary['skipped'] = [];
  const files = await candidates(abs, skipped);
  if (files.length > MAX_FLEET_REPORTS) {
    skipped.push({ file: '…', error: `more than ${MAX_FLEET_REPORTS} report files: only the first ${MAX_FLEET_REPORTS} (by name) were read` });
    files.length = MAX_FLEET_REPORTS;
  }
  const reports: { file: string; report: NodeReport }[] = [];
  let total = 0;
  const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
  for (const file of files) {
    let text: string;
    // one file at a time, and no more than MAX_FLEET_BYTES in all: each file after that is named
    const size = await fsp.lstat(path.join(abs, file)).then(
      (s) => s.size,
      () => 0,
    );
    if (total + Math.min(size, MAX_REPORT_BYTES) > MAX_FLEET_BYTES) {
      skipped.push({ file, error: `not read: the reports read before it total ${mib(total)}; fleet reads at most ${mib(MAX_FLEET_BYTES)} (split the folder)` });
      continue;
    }
    try {
      const bytes = (await safeReadFile(path.join(abs, file), { maxBytes: MAX_REPORT_BYTES, shown: file })).bytes;
      total += bytes.length;
      text = bytes.toString('utf8');
    } catch (err) {
      skipped.push({ file, error: (err as Error).message });
      continue;
    }
    const parsed = parseNodeReport(text);
    if (parsed.ok) reports.push({ file, report: parsed.report });
    else skipped.push({ file, error: parsed.error });
  }
  return summarizeFleet(abs, reports, skipped);
}
