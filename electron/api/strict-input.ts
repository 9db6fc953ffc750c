// The bytes of a request turned into text strictly, one way for every route: invalid UTF-8 is
// refused naming the field it is in, never replaced with U+FFFD (a replacement would store, and
// run, something other than what was sent), and a query parameter a route does not take is
// refused as an unknown body field is, never ignored (`?__proto__=x` included).
import { badRequest, LanesError } from '../../shared/errors.js';

const REPLACEMENT = '\uFFFD';
/** `ignoreBOM`: a byte-order mark stays in the text, so JSON.parse refuses it as it always has. */
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Where in a parsed value the first text holding U+FFFD is: `jobs.0.argv.1`, or the object whose key holds it. */
function replacedAt(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return value.includes(REPLACEMENT) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes(REPLACEMENT)) return path;
    const found = replacedAt(inner, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * A JSON body's text. Invalid UTF-8 is a 400 naming the field that holds it, found by decoding
 * leniently once more (only then, when the strict decoder has already refused the bytes).
 */
export function bodyText(bytes: Buffer): string {
  try {
    return strict.decode(bytes);
  } catch {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8')) as unknown;
    } catch {
      throw badRequest('the request body is not valid UTF-8');
    }
    const path = replacedAt(parsed, []);
    const field = path && path.length > 0 ? path.join('.') : undefined;
    throw badRequest(`${field ?? 'the request body'}: not valid UTF-8`, field);
  }
}

/** A percent-encoded part of a URL, decoded; invalid UTF-8 (or a stray `%`) is a 400 naming `field`. */
export function decodePart(text: string, field: string | undefined, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badRequest(`${field ?? what}: not validly encoded UTF-8`, field);
  }
}

/**
 * The query string as key → value, each decoded strictly; a key the route does not take (`allowed`),
 * or one given twice, is a 400 naming it. `url.search` is read raw: URLSearchParams would have
 * replaced invalid bytes already.
 */
export function strictQuery(url: URL, allowed: ReadonlySet<string>): Map<string, string> {
  const params = new Map<string, string>();
  for (const pair of url.search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = (eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
    const key = decodePart(rawKey, undefined, 'a query parameter’s name');
    const value = decodePart((eq === -1 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' '), key, key);
    if (!allowed.has(key)) {
      const takes = allowed.size === 0 ? 'takes no query parameters' : `takes only ${[...allowed].join(', ')}`;
      throw badRequest(`${key}: unknown query parameter (${url.pathname} ${takes})`, key);
    }
    if (params.has(key)) throw badRequest(`${key}: given more than once`, key);
    params.set(key, value);
  }
  return params;
}

/** The request target as sent must be ASCII: other bytes are percent-encoded by every real client. */
export function checkTarget(target: string): LanesError | null {
  return /[^\x21-\x7e]/.test(target) ? badRequest('the request target holds bytes that are not printable ASCII; percent-encode them') : null;
}
