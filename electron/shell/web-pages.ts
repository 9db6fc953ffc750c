// Where the window's pages come from and what any page may do. Pages are served from a private
// app://lanes/ origin with the CSP on every response (the scheme is declared privileged before
// `ready`, the handler installed after it). Every web contents the app creates refuses to
// navigate away, to open windows (https links go to the person's browser), to attach a
// <webview>, and to get any permission but writing text to the clipboard.
import fs from 'node:fs/promises';
import { app, protocol, session, shell } from 'electron';
import { APP_SCHEME, CONTENT_SECURITY_POLICY, contentTypeFor, linkPolicy, permissionAllowed, rendererFileFor } from './renderer-origin.js';

/** Before `ready`. */
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

/** After `ready`. */
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

/** Before `ready`: applies to every web contents as it is created. */
export function guardWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (linkPolicy(url) === 'stay') return;
      event.preventDefault();
      if (linkPolicy(url) === 'external') void shell.openExternal(url);
    });
    contents.on('will-redirect', (event, url) => {
      if (linkPolicy(url) !== 'stay') event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      if (linkPolicy(url) === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** After `ready`: sessions do not exist before it. */
export function limitPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) =>
    callback(permissionAllowed(permission, details.requestingUrl ?? contents.getURL())),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) => permissionAllowed(permission, requestingOrigin));
}
