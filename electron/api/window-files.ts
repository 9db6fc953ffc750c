// The window's built files (dist/renderer), served the one way both servers use: the local API
// at `/` for a browser, and the desktop app's private app://lanes/ scheme. One resolver, one
// content-type table, one set of headers (the strict CSP included), one path guard.
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { appRoot } from '../paths/app-files.js';

/** Where `npm run build:renderer` puts the window. */
export const windowDir = join(appRoot, 'dist', 'renderer');

/**
 * Scripts only from our own files; no eval, no inline script, no remote anything. Styles allow
 * inline `style` attributes only because charts position elements with them; <style> injection
 * is still limited to files. The page may talk to its own origin only (the API, or app://lanes).
 */
export const WINDOW_CSP = [
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

const SECURITY_HEADERS = {
  'Content-Security-Policy': WINDOW_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export const contentTypeFor = (file: string): string => TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

export interface WindowResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Lanes</title>
<p>The Lanes window isn't built yet. Run <code>npm run build</code>, then reload this page.</p>
<p>The engine and its API are running; the <code>lanes</code> command works meanwhile.</p>\n`;

/** The file under `root` a URL path names, or null; never a path outside `root`. Pure. */
export function windowPath(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = resolve(root);
  const file = resolve(base, relative);
  return file.startsWith(base + sep) ? file : null;
}

async function fileInside(root: string, file: string | null): Promise<string | null> {
  if (file === null) return null;
  try {
    if (!(await stat(file)).isFile()) return null;
    // A link inside the build that points elsewhere is not ours to serve.
    const real = await realpath(file);
    return real.startsWith((await realpath(root)) + sep) ? real : null;
  } catch {
    return null;
  }
}

/** The answer for a page that is not ours to serve. */
export const notFound: WindowResponse = { status: 404, headers: { ...SECURITY_HEADERS, 'Content-Type': TYPES['.txt']! }, body: 'not found\n' };

/** What to answer for a GET of `pathname`. */
export async function windowResponse(root: string, pathname: string): Promise<WindowResponse> {
  const index = await fileInside(root, windowPath(root, '/'));
  if (index === null) return { status: 200, headers: { ...SECURITY_HEADERS, 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-store' }, body: NOT_BUILT };
  let file = await fileInside(root, windowPath(root, pathname));
  if (file === null) {
    // Paths without an extension are the window's own routes: give it the page. A missing asset
    // (it has an extension) is a real 404, so a broken build shows up as one.
    if (extname(pathname) !== '') return notFound;
    file = index;
  }
  // Vite names built assets by content hash, so they never change; the page itself always may.
  const immutable = file !== index && file.includes(`${sep}assets${sep}`);
  return {
    status: 200,
    headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeFor(file), 'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' },
    body: await readFile(file),
  };
}
