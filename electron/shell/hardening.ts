// Rules for every web page the app ever creates, applied as each is created: no navigation away
// from our own origin, no new windows (https links go to the person's browser), no <webview>, and
// no permission prompts (camera, notifications from the page, …) — the window needs none.
import { app, session, shell } from 'electron';
import { linkPolicy } from './renderer-origin.js';

export function setupHardening(): void {
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

/** Call after `ready`: sessions do not exist before it. */
export function denyPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}
