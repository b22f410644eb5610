import { describe, expect, it } from 'vitest';
import { nameFrom } from '../../../electron/engine/repair/preconditions/procs';

describe('a process name as ps shows it', () => {
  it('is comm, unless comm is the main-thread name Node 24 gives itself: then argv[0]', () => {
    expect(nameFrom('fluent-bit\n', () => '/opt/fluent-bit/bin/fluent-bit\0-c\0/etc/fb.conf\0')).toBe('fluent-bit');
    expect(nameFrom('MainThread\n', () => '/usr/local/bin/fluent-bit\0-c\0x\0')).toBe('fluent-bit');
    expect(nameFrom('MainThread\n', () => '/usr/bin/node\0script.js\0')).toBe('node');
    // comm is at most 15 characters: so is the name taken from argv[0]
    expect(nameFrom('MainThread', () => '/x/a-very-long-program-name\0')).toBe('a-very-long-pro');
    // a process gone meanwhile keeps what comm said
    expect(
      nameFrom('MainThread', () => {
        throw Object.assign(new Error('gone'), { code: 'ENOENT' });
      }),
    ).toBe('MainThread');
    expect(nameFrom('', () => '')).toBe('?');
  });
});
