// The built window (dist/renderer), served at `/` for a browser. The page needs no token to
// load: its token rides in the URL fragment (#token=…), which browsers never send to a server.
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The page may talk only to this server, and no other site may frame it (clickjacking). */
const PAGE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/** dist/renderer of this package, found by walking up to package.json from this file. */
export function defaultRendererDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'renderer');
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Lanes</title>
<p>The Lanes window isn't built yet. Run <code>npm run build</code>, then reload this page.</p>
<p>The engine and its API are running; the <code>lanes</code> command works meanwhile.</p>\n`;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A file under `root` for this URL path, or null; never a path outside root, even via links. */
function locate(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const candidate = resolve(root, `.${decoded}`);
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  if (!isFile(candidate)) return null;
  const real = realpathSync(candidate);
  return real.startsWith(realpathSync(root) + sep) ? real : null;
}

export function serveRenderer(req: IncomingMessage, res: ServerResponse, url: URL, root: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  const index = join(root, 'index.html');
  if (!isFile(index)) {
    res.writeHead(200, { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : NOT_BUILT);
    return;
  }
  let file = url.pathname === '/' ? index : locate(root, url.pathname);
  if (file === null) {
    // Paths without an extension are the window's own routes: give it the page. A missing
    // asset (it has an extension) is a real 404, so a broken build shows up as one.
    if (extname(url.pathname) !== '') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    file = index;
  }
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  // Vite names built assets by content hash, so they never change; the page itself always may.
  const immutable = file.includes(`${sep}assets${sep}`) && file !== index;
  res.writeHead(200, {
    ...PAGE_HEADERS,
    'Content-Type': type,
    'Content-Length': statSync(file).size,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
