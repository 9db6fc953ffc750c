// How a request from the table in requests.ts travels over HTTP, written once so the server's
// router and every HTTP client agree on it:
// - path segments like `:id` are filled from the input field of the same name;
// - GET sends the other fields as a query string (the server turns numeric fields back into
//   numbers using the input schema); POST and DELETE send them as a JSON body.
import { requests, type RequestName } from '../requests.js';

/** The `:name` segments of a route path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
}

export interface HttpTarget {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query string, e.g. `/api/jobs?lane=ml&limit=20`. */
  url: string;
  /** JSON body for POST and DELETE; undefined for GET. */
  body: Record<string, unknown> | undefined;
}

export function httpTarget(name: RequestName, input: unknown): HttpTarget {
  const route = requests[name];
  const rest: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const path = route.path.replace(/:([A-Za-z]+)/g, (_m, key: string) => {
    const value = rest[key];
    // The input type requires path fields; an empty segment simply matches no route.
    delete rest[key];
    return encodeURIComponent(value === undefined ? '' : String(value));
  });
  if (route.method !== 'GET') return { method: route.method, url: path, body: rest };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (value !== null && typeof value === 'object') {
      throw new TypeError(`${name}: ${key} cannot travel in a query string`);
    }
    query.set(key, String(value));
  }
  const qs = query.toString();
  return { method: 'GET', url: qs ? `${path}?${qs}` : path, body: undefined };
}
