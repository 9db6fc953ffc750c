// The compiled preload as a sandboxed window would run it: a CommonJS script whose only require
// is 'electron'. It must expose exactly `window.lanes`, pass requests through one invoke channel
// and route each subscription's start and batched events to it alone. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { IPC, type IpcBridge } from '../../shared/client/ipc.js';
import type { LanesEvent } from '../../shared/events.js';
import { RUNTIME_FILES } from '../../electron/shell/paths.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = path.join(root, RUNTIME_FILES.preload);

function loadPreload() {
  if (!fs.existsSync(file)) throw new Error(`${RUNTIME_FILES.preload} is missing: run \`npm run build\` first`);
  const exposed = new Map<string, unknown>();
  const renderer = new EventEmitter();
  const invoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 'answer' }));
  const send = vi.fn();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: { invoke, send, on: renderer.on.bind(renderer), off: renderer.off.bind(renderer) },
  };
  const sandboxRequire = (id: string) => {
    if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
    return electron;
  };
  const module = { exports: {} };
  vm.runInNewContext(fs.readFileSync(file, 'utf8'), { require: sandboxRequire, module, exports: module.exports, Math });
  return { exposed, renderer, invoke, send, lanes: exposed.get('lanes') as IpcBridge };
}

const event = (seq: number): LanesEvent => ({ seq, type: 'laneRemoved', data: { name: `l${seq}` } });

describe('preload', () => {
  it('requires nothing but electron (a sandboxed preload cannot)', () => {
    const text = fs.readFileSync(file, 'utf8');
    const required = [...text.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect(required).toEqual(['electron']);
  });

  it('exposes only window.lanes, with request and listen', () => {
    const { exposed, lanes } = loadPreload();
    expect([...exposed.keys()]).toEqual(['lanes']);
    expect(Object.keys(lanes).sort()).toEqual(['listen', 'request']);
  });

  it('sends a request over the one invoke channel and returns main\'s Result', async () => {
    const { lanes, invoke } = loadPreload();
    expect(await lanes.request('setCap', { lane: 'ml', cap: 3 })).toEqual({ ok: true, value: 'answer' });
    expect(invoke).toHaveBeenCalledWith(IPC.request, 'setCap', { lane: 'ml', cap: 3 });
  });

  it('routes starts and batched events to their own subscriber, and unsubscribes once', () => {
    const { lanes, renderer, send } = loadPreload();
    const a = { events: [] as number[], starts: [] as [number, boolean][] };
    const b = { events: [] as number[], starts: [] as [number, boolean][] };
    const stopA = lanes.listen(5, (seq, reset) => a.starts.push([seq, reset]), (events) => a.events.push(...events.map((e) => e.seq)));
    lanes.listen(0, (seq, reset) => b.starts.push([seq, reset]), (events) => b.events.push(...events.map((e) => e.seq)));
    const [first, second] = send.mock.calls.map((call) => call[1] as { id: string; since: number });
    expect(send.mock.calls.map((call) => call[0])).toEqual([IPC.subscribe, IPC.subscribe]);
    expect(first?.since).toBe(5);
    expect(first?.id).not.toBe(second?.id);

    renderer.emit(IPC.start, {}, first?.id, 5, false);
    renderer.emit(IPC.start, {}, second?.id, 7, false);
    renderer.emit(IPC.events, {}, first?.id, [event(6), event(7)]);
    renderer.emit(IPC.events, {}, second?.id, [event(8)]);
    renderer.emit(IPC.start, {}, second?.id, 9_000, true);
    expect(a).toEqual({ events: [6, 7], starts: [[5, false]] });
    expect(b).toEqual({ events: [8], starts: [[7, false], [9_000, true]] });

    stopA();
    stopA();
    expect(send.mock.calls.filter((call) => (call[1] as { stop?: boolean }).stop)).toEqual([[IPC.subscribe, { id: first?.id, stop: true }]]);
    renderer.emit(IPC.events, {}, first?.id, [event(9)]);
    renderer.emit(IPC.start, {}, first?.id, 10, true);
    expect(a).toEqual({ events: [6, 7], starts: [[5, false]] });
  });
});
