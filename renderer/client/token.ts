// The API token arrives once in the URL fragment (`#token=…`, as Jupyter does): fragments are
// never sent to a server, so it stays out of access logs and Referer headers. It is kept for this
// tab only (sessionStorage survives a reload, not a new window) and wiped from the address bar so
// it does not end up in a screenshot or a bookmark.
const STORAGE_KEY = 'lanes.token';

export function readToken(loc: Location = window.location, storage: Storage | null = safeSession()): string | null {
  const fromHash = tokenFromFragment(loc.hash);
  if (fromHash) {
    storage?.setItem(STORAGE_KEY, fromHash);
    const clean = loc.pathname + loc.search;
    window.history.replaceState(null, '', clean);
    return fromHash;
  }
  return storage?.getItem(STORAGE_KEY) ?? null;
}

export function tokenFromFragment(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  return token && token.trim() !== '' ? token.trim() : null;
}

function safeSession(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); the token then lives in memory only.
    return null;
  }
}
