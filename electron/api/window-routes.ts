// The window's own routes, beside the request table because they are about the HTTP window, not
// the engine: its address (for the engine's own user: over the socket or with the token), a
// one-time code exchanged for the token, and the engine proving it still holds the token a
// window has, before the window sends it again.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HELLO_PATH, REDEEM_PATH, WINDOW_PATH, type WindowAddress } from '../../shared/client/http.js';
import { badRequest, LanesError } from '../../shared/errors.js';
import { readJsonBody } from './body.js';
import { sendJson } from './respond.js';
import { strictQuery } from './strict-input.js';
import type { WindowAccess } from './window-access.js';

/** Routes anyone who reaches the port may call: they hand out nothing without a secret. */
export const OPEN_ROUTES = new Set([HELLO_PATH, REDEEM_PATH]);

const NONE: ReadonlySet<string> = new Set();
const NONCE: ReadonlySet<string> = new Set(['nonce']);

export async function windowRoute(req: IncomingMessage, res: ServerResponse, url: URL, access: WindowAccess, base: () => string): Promise<boolean> {
  if (url.pathname === HELLO_PATH) {
    const nonce = strictQuery(url, NONCE).get('nonce') ?? '';
    if (!/^[0-9a-f]{16,128}$/.test(nonce)) throw badRequest('nonce: 16 to 128 hexadecimal characters', 'nonce');
    sendJson(res, 200, { proof: access.proof(nonce) });
    return true;
  }
  if (url.pathname === REDEEM_PATH) {
    if (req.method !== 'POST') throw badRequest(`${REDEEM_PATH} takes POST`);
    strictQuery(url, NONE);
    const body = (await readJsonBody(req, 1024)) as { code?: unknown } | undefined;
    const token = typeof body?.code === 'string' ? access.redeem(body.code) : null;
    if (token === null) throw new LanesError('unauthorized', 'this link to the window has been used or has expired; open it again with `lanes open`');
    sendJson(res, 200, { token });
    return true;
  }
  if (url.pathname === WINDOW_PATH) {
    strictQuery(url, NONE);
    const answer: WindowAddress = { url: `${base()}#token=${access.token}`, onceUrl: `${base()}#code=${access.mintCode()}` };
    sendJson(res, 200, answer);
    return true;
  }
  return false;
}
