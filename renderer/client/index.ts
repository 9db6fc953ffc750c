// Picks how the window talks to the engine: the desktop app's preload (`window.lanes`, over IPC)
// when present, otherwise the local HTTP API of the `lanes daemon` that served this page, with the
// token the page was opened with (or exchanged for its one-time code), guarded so it never goes
// to a server that cannot prove it is the same engine. Either way it is the one client from
// shared/, so everything above this file is the same.
import { LanesClient } from '../../shared/client/client';
import { httpTransport } from '../../shared/client/http';
import { ipcTransport, type IpcBridge } from '../../shared/client/ipc';
import { fetchPort } from './fetch-port';
import { guardedPort } from './guarded-port';
import { fromFragment, readKey, redeem } from './token';

declare global {
  interface Window {
    lanes?: IpcBridge;
  }
}

/** The client, whether the page came with no key at all (a bookmarked or copied address), and whether its key was kept from before a reload. */
export function createClient(): { client: LanesClient; keyless: boolean; keyKept: boolean } {
  if (window.lanes) return { client: new LanesClient(ipcTransport(window.lanes)), keyless: false, keyKept: false };
  const { credential, kept } = readKey();
  // A new address pasted into this tab (from `lanes open`) changes only the fragment: start over with it.
  window.addEventListener('hashchange', () => {
    if (fromFragment(window.location.hash)) window.location.reload();
  });
  let token: Promise<string | null> | null = null;
  const key = () => {
    if (credential === null) return Promise.resolve(null);
    token ??= 'token' in credential ? Promise.resolve(credential.token) : redeem(credential.code);
    return token;
  };
  return { client: new LanesClient(httpTransport(guardedPort(fetchPort, key))), keyless: credential === null, keyKept: kept };
}
