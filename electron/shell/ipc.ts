// Main's side of `window.lanes`, wired to Electron: one invoke channel for requests, one channel
// to subscribe to events (see IPC in shared/client/ipc.ts). Only our own page (app://lanes) is
// heard. What to answer and how subscriptions are kept is decided in ipc-requests.ts and
// ipc-feeds.ts, tested under Node; this file connects them to ipcMain and to each page's life.
import { ipcMain, type IpcMainEvent, type WebContents } from 'electron';
import { IPC } from '../../shared/client/ipc.js';
import type { EngineHost } from './engine-host.js';
import { IpcFeeds } from './ipc-feeds.js';
import { answerRequest } from './ipc-requests.js';
import { isAppFrame } from './renderer-origin.js';

export function setupIpc(host: EngineHost): () => void {
  const feeds = new IpcFeeds();
  feeds.setSource(host.engine()?.events ?? null);
  const stopFollowing = host.onEngine((engine) => feeds.setSource(engine?.events ?? null));

  ipcMain.handle(IPC.request, (event, name: unknown, input: unknown) => answerRequest({ frameUrl: event.senderFrame?.url, name, input }, host.engine()));

  const watched = new WeakSet<WebContents>();
  const watch = (page: WebContents) => {
    if (watched.has(page)) return;
    watched.add(page);
    // A reload or a closed window would leave its subscriptions behind otherwise.
    page.on('destroyed', () => feeds.dropPage(page));
    page.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) feeds.dropPage(page);
    });
  };
  const onSubscribe = (event: IpcMainEvent, message: unknown) => {
    if (!isAppFrame(event.senderFrame?.url)) return;
    watch(event.sender);
    feeds.message(event.sender, message);
  };
  ipcMain.on(IPC.subscribe, onSubscribe);

  return () => {
    stopFollowing();
    feeds.close();
    ipcMain.removeHandler(IPC.request);
    ipcMain.off(IPC.subscribe, onSubscribe);
  };
}
