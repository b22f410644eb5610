/**
 * `store-doctor completion bash|zsh`: the bash script is loaded into a real bash and asked for
 * completions the way bash asks (COMP_WORDS / COMP_CWORD); the zsh script is checked for every
 * command and option, and by zsh itself (syntax) where zsh is installed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../electron/cli/main';
import { describeProgram, type CliSpec } from '../../electron/cli/spec';
import { bashCompletion, zshCompletion } from '../../electron/cli/completion';

const ROOT = path.join(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-completion-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let spec: CliSpec;
async function getSpec(): Promise<CliSpec> {
  return (spec ??= describeProgram(await buildProgram()));
}

/** What bash completes for the words typed so far (the last one is the word being completed). */
function complete(script: string, words: string[], cwd = tmp): string[] {
  const file = path.join(tmp, 'completion.bash');
  fs.writeFileSync(file, script);
  const line = ['store-doctor', ...words];
  const cmd = `source ${JSON.stringify(file)}; COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${line.length - 1}; _store_doctor; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', cmd], { cwd, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('bash completion', () => {
  it('completes commands, each command’s options, option choices and file names', async () => {
    const s = bashCompletion(await getSpec());
    expect(complete(s, ['re'])).toEqual(['recover-versions', 'repair-index', 'replay', 'report', 'restore-index']);
    expect(complete(s, ['--'])).toEqual(['--help', '--no-color', '--quiet', '--version']);
    expect(complete(s, ['scan', '--'])).toEqual(['--help', '--json', '--no-color', '--no-records', '--quiet', '--records']);
    expect(complete(s, ['protect-index', 'x', '--method', ''])).toEqual(['marker', 'shadow']);
    expect(complete(s, ['completion', ''])).toEqual(['bash', 'zsh']);
    expect(complete(s, ['help', 'di'])).toEqual(['diagnose']);
    fs.writeFileSync(path.join(tmp, 'listing.json'), '{}');
    expect(complete(s, ['diagnose', 'x', '--listing', 'list'])).toEqual(['listing.json']);
    expect(complete(s, ['scan', 'comp'])).toEqual(['completion.bash']);
  });

  it('the compiled CLI prints the same script', async () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'out/cli/store-doctor.cjs'), 'completion', 'bash'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(bashCompletion(await getSpec()));
    const bad = spawnSync(process.execPath, [path.join(ROOT, 'out/cli/store-doctor.cjs'), 'completion', 'fish'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/value 'fish' is invalid for argument 'shell'\. Allowed choices are bash, zsh\./);
  });
});

describe('zsh completion', () => {
  it('names every command and every option of each', async () => {
    const sp = await getSpec();
    const s = zshCompletion(sp);
    expect(s.startsWith('#compdef store-doctor\n')).toBe(true);
    for (const c of sp.commands) {
      expect(s).toContain(`'${c.name}:`);
      expect(s).toContain(`    ${c.name}) _arguments -s `);
      for (const o of c.options) for (const w of o.flags.match(/--?[A-Za-z][\w-]*/g) ?? []) expect(s).toMatch(new RegExp(`'${w}\\[`));
    }
    expect(s).toContain(`'--method[marker | shadow (default\\: a marker where it is safe, else a shadow copy)]:value:(marker shadow)'`);
  });

  const zsh = spawnSync('sh', ['-c', 'command -v zsh'], { encoding: 'utf8' }).stdout.trim();
  it.runIf(zsh)('is valid zsh (needs zsh installed)', async () => {
    const file = path.join(tmp, '_store-doctor');
    fs.writeFileSync(file, zshCompletion(await getSpec()));
    const r = spawnSync(zsh, ['-n', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
