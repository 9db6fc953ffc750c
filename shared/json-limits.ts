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

/** The first number in `value` that JSON cannot carry (JSON.parse reads 1e999 as Infinity), or null. */
function nonFinite(value: unknown): number | null {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return v;
    if (v !== null && typeof v === 'object') for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
  }
  return null;
}

/** Why `value` may not cross (too deep, too large, not JSON), or null when it may. */
export function jsonProblem(value: unknown, limits: { maxDepth: number; maxBytes: number }): string | null {
  if (deeperThan(value, limits.maxDepth)) return `nests deeper than ${limits.maxDepth} levels`;
  // Stored, it would read back as null: a different answer, not the one given.
  const odd = nonFinite(value);
  if (odd !== null) return `holds a number JSON cannot carry (${odd}: beyond what a number can hold, as 1e999 is)`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'is not plain JSON';
  }
  const bytes = text === undefined ? 0 : new TextEncoder().encode(text).length;
  return bytes > limits.maxBytes ? `is ${bytes.toLocaleString('en-US')} bytes of JSON; at most ${limits.maxBytes.toLocaleString('en-US')} are allowed` : null;
}

/** Keys that name an object's machinery, not data: refused wherever they appear as keys. */
const MACHINERY_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** A UTF-16 surrogate with no partner: it encodes no character (it would be stored as U+FFFD). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first thing in `value` no request may hold, with where it is (`env.__proto__`, `argv.1`):
 * a string or key holding a lone surrogate, or a key `__proto__`, `constructor` or `prototype`
 * (an object parsed from JSON keeps `__proto__` as its own key, and copying it would drop it or
 * set a prototype). Null when there is none. Walked without recursion, like deeperThan.
 */
export function unrepresentable(value: unknown): { path: string; problem: string } | null {
  const stack: [unknown, string][] = [[value, '']];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return { path, problem: 'holds a lone UTF-16 surrogate, which is no character' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      v.forEach((child, i) => stack.push([child, at(path, i)]));
      continue;
    }
    for (const key of Object.keys(v)) {
      if (MACHINERY_KEYS.has(key)) return { path: at(path, key), problem: `"${key}" is not allowed as a key` };
      if (LONE_SURROGATE.test(key)) return { path: at(path, key.replace(LONE_SURROGATE, '\uFFFD')), problem: 'the key holds a lone UTF-16 surrogate, which is no character' };
      stack.push([(v as Record<string, unknown>)[key], at(path, key)]);
    }
  }
  return null;
}
