/**
 * Append every item of `items` to `target` without spreading it into call arguments:
 * `target.push(...items)` puts each element on the stack and throws "Maximum call stack size
 * exceeded" near 100k elements, which a big store reaches (issue 9 item 11). Returns `target`.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
