// Picks how the window talks to the engine: the desktop app's preload (`window.lanes`, over IPC)
// when present, otherwise the local HTTP API of the `lanes daemon` that served this page. Either
// way it is the one client from shared/, so everything above this file is the same.
import { LanesClient } from '../../shared/client/client';
import { httpTransport } from '../../shared/client/http';
import { ipcTransport, type IpcBridge } from '../../shared/client/ipc';
import { fetchPort } from './fetch-port';
import { readToken } from './token';

declare global {
  interface Window {
    lanes?: IpcBridge;
  }
}

export function createClient(): LanesClient {
  if (window.lanes) return new LanesClient(ipcTransport(window.lanes));
  const token = readToken();
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return new LanesClient(httpTransport(fetchPort, () => auth));
}
