// Serves the built window from app://lanes/ with the CSP on every response. The scheme must be
// declared privileged before `ready` (standard URLs, a secure context, fetch); the handler is
// installed after it.
import fs from 'node:fs/promises';
import { protocol } from 'electron';
import { APP_SCHEME, CONTENT_SECURITY_POLICY, contentTypeFor, rendererFileFor } from './renderer-origin.js';

export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

const securityHeaders = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = rendererFileFor(request.url, rendererDir);
    if (!file) return new Response('Not found', { status: 404, headers: securityHeaders });
    try {
      // fs reads through app.asar transparently in the main process.
      const body = await fs.readFile(file);
      return new Response(body, { status: 200, headers: { ...securityHeaders, 'Content-Type': contentTypeFor(file) } });
    } catch {
      const hint = file.endsWith('index.html') ? ' — run `npm run build:renderer`' : '';
      return new Response(`Not found${hint}`, { status: 404, headers: { ...securityHeaders, 'Content-Type': 'text/plain; charset=utf-8' } });
    }
  });
}
