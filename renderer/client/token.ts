// The window's key to its engine arrives once in the URL fragment (fragments are never sent to a
// server, so it stays out of access logs and Referer headers): `#token=…` from `lanes open`, or
// `#code=…`, good once, from a page opened on the person's behalf, which is exchanged for the
// token. The token is kept for this tab only (sessionStorage survives a reload, not a new window)
// and wiped from the address bar so it does not end up in a screenshot or a bookmark.
import { REDEEM_PATH } from '../../shared/client/http';
import { LanesError } from '../../shared/errors';

const STORAGE_KEY = 'lanes.token';

export type Credential = { token: string } | { code: string } | null;

export function fromFragment(hash: string): Credential {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token')?.trim();
  if (token) return { token };
  const code = params.get('code')?.trim();
  return code ? { code } : null;
}

/** What the page was opened with, or what this tab kept; the address bar is cleaned either way. */
export function readCredential(loc: Location = window.location, storage: Storage | null = safeSession()): Credential {
  return readKey(loc, storage).credential;
}

/** The credential, and whether it was kept from an earlier load of this tab (a reload) rather than given now. */
export function readKey(loc: Location = window.location, storage: Storage | null = safeSession()): { credential: Credential; kept: boolean } {
  const given = fromFragment(loc.hash);
  if (given) {
    window.history.replaceState(null, '', loc.pathname + loc.search);
    if ('token' in given) storage?.setItem(STORAGE_KEY, given.token);
    return { credential: given, kept: false };
  }
  const kept = storage?.getItem(STORAGE_KEY);
  return kept ? { credential: { token: kept }, kept: true } : { credential: null, kept: false };
}

/** A one-time code for the token, at the engine that served this page. */
export async function redeem(code: string, storage: Storage | null = safeSession()): Promise<string> {
  const res = await fetch(REDEEM_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }), cache: 'no-store' });
  const body = (await res.json().catch(() => null)) as { token?: string; error?: unknown } | null;
  if (!res.ok || typeof body?.token !== 'string') throw LanesError.from(body?.error, 'this link to the window could not be used; open it again with `lanes open`');
  storage?.setItem(STORAGE_KEY, body.token);
  return body.token;
}

function safeSession(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); the token then lives in memory only.
    return null;
  }
}
