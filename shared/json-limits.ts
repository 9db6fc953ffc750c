// Bounds on JSON that crosses a boundary (a payload from a client, an answer from a worker).
// Depth is measured without recursion, so a value nested thousands deep is refused rather than
// overflowing the stack of whoever measures, serializes or stores it.

/** True when `value` nests deeper than `max` arrays and objects. */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Why `value` may not cross (too deep, too large, not JSON), or null when it may. */
export function jsonProblem(value: unknown, limits: { maxDepth: number; maxBytes: number }): string | null {
  if (deeperThan(value, limits.maxDepth)) return `nests deeper than ${limits.maxDepth} levels`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'is not plain JSON';
  }
  const bytes = text === undefined ? 0 : new TextEncoder().encode(text).length;
  return bytes > limits.maxBytes ? `is ${bytes.toLocaleString('en-US')} bytes of JSON; at most ${limits.maxBytes.toLocaleString('en-US')} are allowed` : null;
}
