// Routes derived from the request table: nothing here names a request, so a request added to
// shared/requests.ts is served as soon as the engine handles it.
import { z } from 'zod';
import { requests, type RequestName } from '../../shared/requests.js';
import { inputs } from '../../shared/schemas.js';
import { pathParams } from '../../shared/client/http-target.js';
import { badRequest } from '../../shared/errors.js';

interface CompiledRoute {
  name: RequestName;
  method: string;
  pattern: RegExp;
  params: string[];
  /** Input fields whose schema wants a number: query strings and paths only carry text. */
  numeric: Set<string>;
}

export type RouteMatch =
  | { kind: 'found'; name: RequestName; method: string; params: Record<string, string> }
  /** The path exists but not with this method: answer 405 with these in `Allow`. */
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/** Strips optional/default/nullable wrappers to see what a field really is. */
function baseType(schema: z.ZodType): string {
  let def = schema.def as { type: string; innerType?: z.ZodType };
  while (def.innerType) def = def.innerType.def as typeof def;
  return def.type;
}

function numericFields(schema: z.ZodType): Set<string> {
  if (!(schema instanceof z.ZodObject)) return new Set();
  const shape = schema.shape as Record<string, z.ZodType>;
  return new Set(Object.keys(shape).filter((key) => baseType(shape[key] as z.ZodType) === 'number'));
}

function compile(): CompiledRoute[] {
  return (Object.keys(requests) as RequestName[]).map((name) => {
    const { method, path } = requests[name];
    const input = inputs[name];
    const source = path
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '([^/]+)' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return { name, method, pattern: new RegExp(`^${source}/?$`), params: pathParams(path), numeric: numericFields(input) };
  });
}

const routes = compile();

export function matchRoute(method: string, pathname: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    route.params.forEach((key, i) => {
      params[key] = decodeURIComponent(m[i + 1] as string);
    });
    return { kind: 'found', name: route.name, method: route.method, params };
  }
  return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
}

/** Text that is plainly a number becomes one; anything else is left for the schema to refuse. */
function coerce(value: string, numeric: boolean): unknown {
  return numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/**
 * The raw input for `name`: path parameters, plus the query string (GET) or the JSON body
 * (POST, DELETE). Validation proper is the engine's; this only assembles.
 */
export function assembleInput(
  name: RequestName,
  params: Record<string, string>,
  query: URLSearchParams,
  body: unknown,
): Record<string, unknown> {
  const route = routes.find((r) => r.name === name) as CompiledRoute;
  const input: Record<string, unknown> = {};
  if (route.method === 'GET') {
    for (const key of new Set(query.keys())) {
      const values = query.getAll(key);
      if (values.length > 1) throw badRequest(`${key}: given more than once`, key);
      input[key] = coerce(values[0] as string, route.numeric.has(key));
    }
  } else if (body !== undefined) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('the request body must be a JSON object');
    }
    // Copied as own properties: Object.assign would run the __proto__ setter for a body that has
    // that key, and the schema would never see it.
    for (const [key, value] of Object.entries(body)) Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true });
  }
  for (const [key, text] of Object.entries(params)) {
    const value = coerce(text, route.numeric.has(key));
    // The path names the thing acted on; a body that names another one is a mistake, not a choice.
    if (key in input && input[key] !== value) {
      throw badRequest(`${key}: the body says ${JSON.stringify(input[key])} but the path says ${JSON.stringify(value)}`, key);
    }
    input[key] = value;
  }
  return input;
}
