// Who may talk to the engine over TCP (the window in a browser). Loopback is not enough: any web
// page the person visits can aim requests at 127.0.0.1, and a DNS-rebinding page can even make
// them look same-origin. So every request must name us in `Host`, any `Origin` must be ours, and
// every API call must carry the token the engine minted at this start. (Programs of the data
// directory's owner use the engine's socket instead, where the directory's permissions decide.)
import type { IncomingMessage } from 'node:http';
import { EVENTS_PATH } from '../../shared/client/http.js';
import { sameSecret } from './daemon-info.js';

export type Refusal = { status: 401 | 403; code: 'unauthorized' | 'forbidden'; message: string };

/** `Host` values that mean this server: a rebinding attack arrives with its own domain name. */
function ourHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

function ourOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

/** Host and Origin, checked for every request, static files included. */
export function checkSite(req: IncomingMessage, port: number): Refusal | null {
  if (req.headers.host === undefined) return { status: 403, code: 'forbidden', message: 'a request without Host is not for this engine' };
  const host = req.headers.host.toLowerCase();
  if (!ourHosts(port).has(host)) {
    return { status: 403, code: 'forbidden', message: host === '' ? 'the request names no Host: send this engine\'s address' : `Host "${host}" is not this engine's address` };
  }
  const origin = req.headers.origin;
  // Browsers send "null" from sandboxed frames and file: pages; that is not us either.
  if (origin !== undefined && !ourOrigins(port).has(origin.toLowerCase())) {
    return { status: 403, code: 'forbidden', message: `Origin "${origin}" may not use this engine` };
  }
  return null;
}

/**
 * The bearer token, for every /api request. Only the event stream also takes `?token=`, because
 * a browser's EventSource cannot set headers; a token in a URL is more likely to leak (history,
 * logs), so nothing else accepts it there.
 */
export function checkToken(req: IncomingMessage, url: URL, token: string): Refusal | null {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  const given = match?.[1] ?? (url.pathname === EVENTS_PATH ? url.searchParams.get('token') : null);
  if (given === null || given === undefined) {
    return { status: 401, code: 'unauthorized', message: 'this request needs the window\'s token (Authorization: Bearer …); open the window with `lanes open`' };
  }
  if (!sameSecret(given, token)) return { status: 401, code: 'unauthorized', message: 'wrong token' };
  return null;
}
