import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Confinement, splitArchivePath } from '../../../electron/engine/session/confine';
import { redactSecrets, toContractError, EngineError } from '../../../electron/engine/session/errors';
import { checkConfinement } from '../../../electron/engine/session/dispatch';
import { tempDir } from '../../host/helpers';

describe('Confinement (realpath based)', () => {
  const base = tempDir('sd-confine-');
  const store = path.join(base, 'store');
  fs.mkdirSync(path.join(store, 'bucket', 'stream'), { recursive: true });
  fs.mkdirSync(path.join(base, 'store-evil'));
  fs.symlinkSync(base, path.join(store, 'up'));
  fs.symlinkSync(store, path.join(base, 'alias'));
  const archive = path.join(base, 'snap.tar.gz');
  fs.writeFileSync(archive, '');
  const c = new Confinement();
  c.add(store);
  c.add(archive);

  it('accepts the store, paths inside it and paths through a symlink to it', () => {
    expect(c.contains(store)).toBe(true);
    expect(c.contains(path.join(store, 'bucket', 'stream'))).toBe(true);
    expect(c.contains(path.join(store, 'bucket', 'not-yet-there'))).toBe(true);
    expect(c.contains(path.join(base, 'alias', 'bucket'))).toBe(true);
  });

  it('refuses siblings with a common prefix, .. tricks, symlinks out, relative paths and NUL', () => {
    expect(c.contains(path.join(base, 'store-evil'))).toBe(false);
    expect(c.contains(`${store}/../store-evil`)).toBe(false);
    expect(c.contains(path.join(store, 'up', 'store-evil'))).toBe(false);
    expect(c.contains('bucket/stream')).toBe(false);
    expect(c.contains(`${store}/bucket\0`)).toBe(false);
    expect(c.contains('/')).toBe(false);
  });

  it('handles paths inside an opened archive', () => {
    expect(splitArchivePath(`${archive}!/store/b`)).toEqual({ file: archive, inner: 'store/b' });
    expect(c.contains(`${archive}!/store/bucket`)).toBe(true);
    expect(c.contains(`${archive}!/store/../../x`)).toBe(false);
    expect(c.contains(`${path.join(base, 'other.tar.gz')}!/store`)).toBe(false);
    c.remove(archive);
    expect(c.contains(`${archive}!/store/bucket`)).toBe(false);
  });

  it('door check: only store.open and config.load may name any path', () => {
    const engine = { isPathInOpenedStores: (p: string) => c.contains(p) };
    expect(checkConfinement(engine, 'store.open', { path: '/etc' })).toBeNull();
    expect(checkConfinement(engine, 'config.load', { storeId: 's', path: '/etc/fluent-bit.conf' })).toBeNull();
    expect(checkConfinement(engine, 'chunk.inspect', { storeId: 's', rootPath: '/etc', chunkPath: 'x' })).toMatchObject({ code: 'forbidden' });
    expect(checkConfinement(engine, 'chunk.inspect', { storeId: 's', rootPath: path.join(store, 'bucket'), chunkPath: 'x' })).toBeNull();
  });
});

describe('errors as the doors send them', () => {
  it('maps fs errors to a sentence with the file, never a stack', () => {
    const err = Object.assign(new Error("ENOENT: no such file or directory, open '/data/store/x'\n    at Object.openSync (node:fs:1)"), {
      code: 'ENOENT',
      path: '/data/store/x',
    });
    expect(toContractError(err)).toEqual({ code: 'not-found', message: 'x: no such file or directory', file: '/data/store/x' });
    const eacces = Object.assign(new Error("EACCES: permission denied, open '/root/s'"), { code: 'EACCES', path: '/root/s' });
    expect(toContractError(eacces)).toMatchObject({ code: 'failed', message: 's: permission denied' });
  });

  it('keeps engine codes and names refusals, bad inputs and cancellation', () => {
    expect(toContractError(new EngineError('forbidden', 'no', '/a/b'))).toEqual({ code: 'forbidden', message: 'b: no', file: '/a/b' });
    expect(toContractError(Object.assign(new Error('refused: Fluent Bit is running'), { name: 'RefusedError' })).code).toBe('refused');
    expect(toContractError(Object.assign(new Error('f.conf:3: bad line'), { name: 'ConfigError', file: '/x/f.conf' })).code).toBe('invalid-input');
    expect(toContractError(Object.assign(new Error('x'), { name: 'AbortError' })).code).toBe('cancelled');
    const ac = new AbortController();
    ac.abort();
    expect(toContractError(new Error('socket hang up'), { signal: ac.signal }).code).toBe('cancelled');
    expect(toContractError('plain string')).toEqual({ code: 'failed', message: 'plain string' });
  });

  it('never passes secrets on', () => {
    const msg =
      'failed with aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY and AKIAIOSFODNN7EXAMPLE, Authorization: Bearer abc.def, token="xyz"';
    const out = redactSecrets(msg);
    expect(out).not.toContain('wJalrXUtnFEMI');
    expect(out).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(out).not.toContain('abc.def');
    expect(out).not.toContain('xyz');
    expect(toContractError(new Error(msg)).message).not.toMatch(/wJalr|AKIAIOSF/);
  });
});
