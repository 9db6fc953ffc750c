// Routes derived from the request table: nothing here names a request, so a request added to
// shared/requests.ts is served as soon as the engine handles it.
import { z } from 'zod';
import { requests, type RequestName } from '../../shared/requests.js';
import { inputs } from '../../shared/schemas.js';
import { pathParams } from '../../shared/client/http-target.js';
import { badRequest } from '../../shared/errors.js';
import { decodePart, strictQuery } from './strict-input.js';

interface CompiledRoute {
  name: RequestName;
  method: string;
  pattern: RegExp;
  params: string[];
  /** Input fields whose schema wants a number: query strings and paths only carry text. */
  numeric: Set<string>;
  /** The query parameters a GET takes: its input's fields (none for any other method). */
  query: Set<string>;
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

const fieldsOf = (schema: z.ZodType): Set<string> => new Set(schema instanceof z.ZodObject ? Object.keys(schema.shape as object) : []);

function compile(): CompiledRoute[] {
  return (Object.keys(requests) as RequestName[]).map((name) => {
    const { method, path } = requests[name];
    const input = inputs[name];
    const source = path
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '([^/]+)' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return { name, method, pattern: new RegExp(`^${source}/?$`), params: pathParams(path), numeric: numericFields(input), query: method === 'GET' ? fieldsOf(input) : new Set() };
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
      params[key] = decodePart(m[i + 1] as string, key, key);
    });
    return { kind: 'found', name: route.name, method: route.method, params };
  }
  return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
}

/** Text that is plainly a number becomes one; anything else is left for the schema to refuse. */
function coerce(value: string, numeric: boolean): unknown {
  return numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** Sets an own property: plain assignment would run the `__proto__` setter, and the schema would never see the key. */
const own = (input: Record<string, unknown>, key: string, value: unknown) => Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * The raw input for `name`: path parameters, plus the query string (GET) or the JSON body
 * (POST, DELETE). A query parameter the request does not take is refused here, as the schema
 * refuses an unknown body field; validation proper is the engine's.
 */
export function assembleInput(name: RequestName, params: Record<string, string>, url: URL, body: unknown): Record<string, unknown> {
  const route = routes.find((r) => r.name === name) as CompiledRoute;
  const input: Record<string, unknown> = {};
  const query = strictQuery(url, route.query);
  for (const [key, value] of query) own(input, key, coerce(value, route.numeric.has(key)));
  if (route.method !== 'GET' && body !== undefined) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('the request body must be a JSON object');
    }
    for (const [key, value] of Object.entries(body)) own(input, key, value);
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
