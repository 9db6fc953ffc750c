// Picks how the window talks to the engine: the desktop app's preload (`window.lanes`, over IPC)
// when present, otherwise the local HTTP API of `lanes daemon` that served this page.
import type { LanesBridge } from '../../shared/bridge';
import { HttpBridge, type LinkState } from './http-bridge';
import { readToken } from './token';

declare global {
  interface Window {
    lanes?: LanesBridge;
  }
}

export type { LinkState };

export function createBridge(onLink: (state: LinkState) => void): LanesBridge {
  if (window.lanes) {
    // IPC to our own main process cannot drop the way a socket does.
    onLink('connected');
    return window.lanes;
  }
  return new HttpBridge(readToken(), onLink);
}
