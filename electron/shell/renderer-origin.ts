// The window's pages come from a private `app://lanes/` origin served by main, not from file://.
// That gives the page a real origin (relative and absolute asset URLs both work), lets main attach
// the CSP header to every response, and makes "is this our page?" a string comparison.
import path from 'node:path';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://lanes`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Scripts only from our own files; no eval, no inline script, no remote anything. Styles allow
 * inline `style` attributes only because charts position elements with them; <style> injection
 * is still limited to files by 'self' plus the attribute-only exception.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The file under `root` an app:// URL names, or null for anything outside it or another host. */
export function rendererFileFor(url: string, root: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const file = path.resolve(root, relative);
  const inside = path.relative(path.resolve(root), file);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
  return file;
}

export function isAppUrl(url: string): boolean {
  return url === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`);
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
