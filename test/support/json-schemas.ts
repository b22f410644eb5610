/**
 * For the tests of the published JSON schemas: run the compiled CLI (bin/store-doctor.cjs, as
 * shipped) and check a document against both the committed JSON Schema in docs/ (with ajv, in
 * strict mode, formats checked) and the zod schema it is generated from.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { JSON_DOCUMENTS } from '../../shared/json-schemas';

export const ROOT = path.resolve(__dirname, '../..');
export type DocumentName = keyof typeof JSON_DOCUMENTS;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed (the test fails when it is not one JSON document). */
  json: unknown;
}

/** `store-doctor <args>`; stdout must be exactly one JSON document. */
export function cliJson(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/store-doctor.cjs'), ...args],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...env } },
      (err, stdout, stderr) => {
        const code = err ? (err as { code?: unknown }).code : 0;
        if (typeof code !== 'number') return reject(new Error(`store-doctor ${args.join(' ')}: ${err?.message}\n${stderr}`));
        try {
          resolve({ code, stdout, stderr, json: JSON.parse(stdout) });
        } catch {
          reject(new Error(`store-doctor ${args.join(' ')} (exit ${code}) printed no JSON document:\n${stdout.slice(0, 500)}\n${stderr.slice(0, 500)}`));
        }
      },
    );
  });
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validators = new Map<DocumentName, ValidateFunction>();

/** The committed docs/<file> of a document, compiled once. */
export function validatorOf(name: DocumentName): ValidateFunction {
  let v = validators.get(name);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(path.join(ROOT, 'docs', JSON_DOCUMENTS[name].file), 'utf8')));
    validators.set(name, v);
  }
  return v;
}

/** What each validator says of `json`: null when it conforms, else the first problems. */
export function check(name: DocumentName, json: unknown): { ajv: string | null; zod: string | null } {
  const v = validatorOf(name);
  const ok = v(json);
  const z = JSON_DOCUMENTS[name].schema.safeParse(json);
  return {
    ajv: ok ? null : ajv.errorsText(v.errors?.slice(0, 5)),
    zod: z.success ? null : JSON.stringify(z.error.issues.slice(0, 3)),
  };
}

/** `json` conforms to the document's JSON Schema (ajv) and to its zod schema. */
export function expectConforms(name: DocumentName, json: unknown): void {
  const r = check(name, json);
  expect(r.ajv, `${JSON_DOCUMENTS[name].file} (ajv)`).toBeNull();
  expect(r.zod, `${name} (zod)`).toBeNull();
}

/** Both validators reject `json`: the schema can fail. */
export function expectRejected(name: DocumentName, json: unknown): void {
  const r = check(name, json);
  expect(r.ajv, `${JSON_DOCUMENTS[name].file} (ajv) should reject`).not.toBeNull();
  expect(r.zod, `${name} (zod) should reject`).not.toBeNull();
}
