// Where the window's pages come from and what any page may do. Pages are served from a private
// app://lanes/ origin (the scheme is declared privileged before `ready`, the handler installed
// after it) by the same resolver the local API serves them with, CSP and all. Every web contents
// the app creates refuses to navigate away, to open windows (https links go to the person's
// browser), to attach a <webview>, and to get any permission but writing text to the clipboard.
import { app, protocol, session, shell } from 'electron';
import { notFound, windowResponse } from '../api/window-files.js';
import { APP_SCHEME, appPathname, linkPolicy, permissionAllowed } from './renderer-origin.js';

/** Before `ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/**
 * After `ready`. fs reads through app.asar transparently in the main process. Another host under
 * app:// (app://other/…) is nothing of ours; no file is looked at for it.
 */
export function serveWindow(root: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const pathname = appPathname(request.url);
    const answer = pathname === null ? notFound : await windowResponse(root, pathname);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
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
