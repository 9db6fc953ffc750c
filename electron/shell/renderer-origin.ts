// The window's pages come from a private `app://lanes/` origin served by main, not from file://.
// That gives the page a real origin (relative and absolute asset URLs both work), lets main attach
// the CSP header to every response, and makes "is this our page?" a string comparison. What is
// served there, and with which headers, is the API server's own (electron/api/window-files.ts);
// this file says only what belongs to the origin.
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://lanes`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export function isAppUrl(url: string): boolean {
  return url === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`);
}

/** Whether a frame (an IPC message's sender) shows one of our pages; Electron may not know. */
export function isAppFrame(frameUrl: string | null | undefined): boolean {
  return typeof frameUrl === 'string' && isAppUrl(frameUrl);
}

/** The path an app:// request asks for, or null for another origin (checked before any file). */
export function appPathname(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return `${parsed.protocol}//${parsed.host}` === APP_ORIGIN ? parsed.pathname : null;
}

/**
 * Where a link the page tries to open may go: our own pages stay in the window (hash changes),
 * https and mailto links open in the person's browser, everything else is refused.
 */
export function linkPolicy(url: string): 'stay' | 'external' | 'deny' {
  if (isAppUrl(url)) return 'stay';
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'mailto:' ? 'external' : 'deny';
  } catch {
    return 'deny';
  }
}

/**
 * Which web permissions our page gets: writing text to the clipboard (a "copy command" button)
 * and nothing else — no camera, microphone, location, notifications or clipboard reading.
 */
export function permissionAllowed(permission: string, requestingUrl: string): boolean {
  return permission === 'clipboard-sanitized-write' && isAppUrl(requestingUrl);
}
