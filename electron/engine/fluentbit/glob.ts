/** Minimal glob(3) for `@INCLUDE` / `includes`: `*`, `?` and `[…]` in any path segment, sorted. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export function hasGlobChars(p: string): boolean {
  return /[*?[]/.test(p);
}

function segmentRegex(seg: string): RegExp {
  let src = '^';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '*') src += '[^/]*';
    else if (c === '?') src += '[^/]';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close < 0) src += '\\[';
      else {
        let body = seg.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        src += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else src += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(src + '$');
}

export async function expandGlob(pattern: string): Promise<string[]> {
  const abs = path.resolve(pattern);
  if (!hasGlobChars(abs)) {
    try {
      await stat(abs);
      return [abs];
    } catch {
      return [];
    }
  }
  const parts = abs.split(path.sep).filter((p, i) => p !== '' || i === 0);
  let current = [parts[0] === '' ? path.sep : parts[0]];
  for (const seg of parts.slice(1)) {
    const next: string[] = [];
    for (const dir of current) {
      if (!hasGlobChars(seg)) {
        next.push(path.join(dir, seg));
        continue;
      }
      const re = segmentRegex(seg);
      let names: string[] = [];
      try {
        names = await readdir(dir);
      } catch {
        continue;
      }
      for (const n of names) if ((!n.startsWith('.') || seg.startsWith('.')) && re.test(n)) next.push(path.join(dir, n));
    }
    current = next;
  }
  const out: string[] = [];
  for (const f of current) {
    try {
      if ((await stat(f)).isFile()) out.push(f);
    } catch {
      /* vanished or dangling */
    }
  }
  return out.sort();
}
