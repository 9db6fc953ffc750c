// The window's only door to the app: `window.lanes`, a LanesBridge over two IPC channels. The
// window is sandboxed, and a sandboxed preload can require nothing but 'electron' (no relative
// files), so this file stands alone: the channel names are restated below and checked against
// shared/bridge.ts at compile time, and the shapes are the contract's own types.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { IPC as SharedIpc, LanesBridge, Result } from '../../shared/bridge.js';
import type { LanesEvent } from '../../shared/events.js';
import type { RequestName, RequestOutput } from '../../shared/requests.js';

// Must equal shared/bridge.ts's IPC exactly; `satisfies` fails the build if they drift apart.
const IPC = {
  request: 'lanes:request',
  subscribe: 'lanes:subscribe',
  event: 'lanes:event',
  reset: 'lanes:reset',
} as const satisfies typeof SharedIpc;

let nextId = 0;
// Ids only need to be unique within this page; main keys them by window too.
const pageKey = Math.random().toString(36).slice(2, 8);

const lanes: LanesBridge = {
  request<K extends RequestName>(name: K, input: unknown) {
    return ipcRenderer.invoke(IPC.request, name, input) as Promise<Result<RequestOutput<K>>>;
  },
  subscribe(sinceSeq, onEvent, onReset) {
    const id = `${pageKey}-${++nextId}`;
    const onEvents = (_event: IpcRendererEvent, subId: string, events: LanesEvent[]) => {
      if (subId !== id) return;
      for (const event of events) onEvent(event);
    };
    const onResetMessage = (_event: IpcRendererEvent, subId: string) => {
      if (subId === id) onReset();
    };
    ipcRenderer.on(IPC.event, onEvents);
    ipcRenderer.on(IPC.reset, onResetMessage);
    ipcRenderer.send(IPC.subscribe, { id, since: sinceSeq });
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      ipcRenderer.off(IPC.event, onEvents);
      ipcRenderer.off(IPC.reset, onResetMessage);
      ipcRenderer.send(IPC.subscribe, { id, stop: true });
    };
  },
};

contextBridge.exposeInMainWorld('lanes', lanes);
