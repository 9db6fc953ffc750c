// Where a shared lane's queue lives: `redis://[USER[:PASSWORD]@]HOST[:PORT][/DB]`, or `rediss://`
// for TLS. Read here once, so the schema refuses a malformed address with the same words the
// engine would, and every place that shows the address shows it without its password.

export interface RedisAddress {
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username: string | null;
  password: string | null;
}

/** Longer than any address a person types; keeps what is stored and shown bounded. */
export const REDIS_URL_MAX_CHARS = 1_000;
const DB_MAX = 9_999;

/** The address, or the reason it is not one (a sentence without the password in it). */
export function parseRedisUrl(text: string): RedisAddress | { problem: string } {
  if (text.length > REDIS_URL_MAX_CHARS) return { problem: `a Redis address is at most ${REDIS_URL_MAX_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'not a Redis address; write it as redis://HOST:PORT[/DB] (rediss:// for TLS)' };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return { problem: `a Redis address starts with redis:// or rediss://, not ${url.protocol}//` };
  if (url.hostname === '') return { problem: 'the Redis address names no host' };
  if (url.search !== '' || url.hash !== '') return { problem: 'a Redis address takes no ?options or #fragment here' };
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,4}$/.test(path)) return { problem: `the database in a Redis address is a number from 0 to ${DB_MAX}, after the port: redis://HOST:PORT/DB` };
  const port = url.port === '' ? 6379 : Number(url.port);
  let username: string | null;
  let password: string | null;
  try {
    username = url.username === '' ? null : decodeURIComponent(url.username);
    password = url.password === '' ? null : decodeURIComponent(url.password);
  } catch {
    return { problem: 'the user or password in the Redis address is not valid percent-encoding' };
  }
  // Brackets are URL syntax for an IPv6 host, not part of the address a socket connects to.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { tls: url.protocol === 'rediss:', host, port, db: path === '' ? 0 : Number(path), username, password };
}

/** The address as status, logs and the window show it: the password replaced by `***`. */
export function redactedRedisUrl(a: RedisAddress): string {
  const user = a.username === null ? '' : encodeURIComponent(a.username);
  const auth = a.password === null ? (user ? `${user}@` : '') : `${user}:***@`;
  const host = a.host.includes(':') ? `[${a.host}]` : a.host;
  return `${a.tls ? 'rediss' : 'redis'}://${auth}${host}:${a.port}/${a.db}`;
}

/** Only this machine can reach it: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
