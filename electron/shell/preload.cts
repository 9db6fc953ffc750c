// The window's only door to the app: `window.lanes`, an IpcBridge over the channels in
// shared/client/ipc.ts. The window is sandboxed, and a sandboxed preload can require nothing but
// 'electron' (no relative files), so this file stands alone: the channel names are restated below
// and checked against the shared ones at compile time, and the bridge is checked against the
// shared IpcBridge, so neither can drift from what the window's client expects.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { IPC as SharedIpc, IpcBridge, Result } from '../../shared/client/ipc.js';
import type { LanesEvent } from '../../shared/events.js';
import type { RequestName } from '../../shared/requests.js';

// Must equal shared/client/ipc.ts's IPC exactly; `satisfies` fails the build if they drift apart.
const IPC = {
  request: 'lanes:request',
  subscribe: 'lanes:subscribe',
  start: 'lanes:start',
  events: 'lanes:events',
} as const satisfies typeof SharedIpc;

let nextId = 0;
// Ids only need to be unique within this page; main keys them by page too.
const pageKey = Math.random().toString(36).slice(2, 8);

const lanes = {
  request(name: RequestName, input: unknown): Promise<Result<unknown>> {
    return ipcRenderer.invoke(IPC.request, name, input) as Promise<Result<unknown>>;
  },
  listen(since: number, onStart: (seq: number, reset: boolean) => void, onEvents: (events: LanesEvent[]) => void): () => void {
    const id = `${pageKey}-${++nextId}`;
    // Main sends every subscription's messages on the same two channels; each listener takes its own.
    const start = (_event: IpcRendererEvent, subId: string, seq: number, reset: boolean) => {
      if (subId === id) onStart(seq, reset);
    };
    const events = (_event: IpcRendererEvent, subId: string, batch: LanesEvent[]) => {
      if (subId === id) onEvents(batch);
    };
    ipcRenderer.on(IPC.start, start);
    ipcRenderer.on(IPC.events, events);
    ipcRenderer.send(IPC.subscribe, { id, since });
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      ipcRenderer.off(IPC.start, start);
      ipcRenderer.off(IPC.events, events);
      ipcRenderer.send(IPC.subscribe, { id, stop: true });
    };
  },
} satisfies IpcBridge;

contextBridge.exposeInMainWorld('lanes', lanes);
