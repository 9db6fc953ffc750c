// The engine as `lanes daemon` hosts it (engine, socket, window port), left idle after it has been
// talked to through each door, arms no repeating timer and, once its start-up has passed, no timer
// at all: it sleeps until a request or a due time wakes it. The engine's and the API's own timers
// run on a simulated clock (vi.getTimerCount counts them); Node's, such as the HTTP server's
// connection check, are real and are found as they are created (async_hooks), so a door that
// wakes the process on a cadence of its own shows up here without a clock being read.
import { createHook } from 'node:async_hooks';
import { request, type RequestOptions } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostEngine, type HostedEngine } from '../../electron/api/host.js';
import { tempDir } from '../support/engine.js';
import { quietMachine } from '../support/machine.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Node's own Timeout objects (their fields are Node's, stable since timers were written in JS). */
interface NodeTimeout {
  _repeat: number | null;
  _destroyed: boolean;
}

/** Real timers created while it is enabled, with where each was made. */
function timerCensus() {
  const made: { timer: NodeTimeout; where: string }[] = [];
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'Timeout') made.push({ timer: resource as NodeTimeout, where: new Error().stack ?? '' });
    },
  });
  return {
    start: () => hook.enable(),
    stop: () => hook.disable(),
    /** Still armed and repeating more often than once a day. */
    repeating: () => made.filter((m) => !m.timer._destroyed && m.timer._repeat !== null && m.timer._repeat < DAY).map((m) => m.where),
  };
}

/** One request through a door, on a connection of its own that closes with the answer. */
function ask(where: RequestOptions, path: string, abortAfterFirstBytes = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ ...where, path, agent: false, headers: { Connection: 'close', ...where.headers } }, (res) => {
      res.once('data', () => abortAfterFirstBytes && req.destroy());
      res.on('close', () => resolve(res.statusCode ?? 0)).resume();
    });
    req.on('error', (err) => (abortAfterFirstBytes ? resolve(0) : reject(err)));
    req.end();
  });
}

let host: HostedEngine | null = null;
let cleanup = () => {};
const census = timerCensus();
beforeEach(() => {
  // Only the clock's timers are simulated: setImmediate and I/O stay real, so the engine runs.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  census.start();
});
afterEach(async () => {
  census.stop();
  vi.useRealTimers();
  await host?.close({ graceMs: 1000 });
  host = null;
  cleanup();
});

describe('an idle hosted engine', () => {
  it('arms no repeating timer once talked to through its socket and its window port, and no timer after its start-up', async () => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    host = await hostEngine({ machineReaders: quietMachine(), dataDir: dir.dir, cores: 3, cgroups: false, log: () => {} });
    const owner = { socketPath: host.socket, headers: { Host: 'localhost' } };
    expect(await ask(owner, '/api/status')).toBe(200);
    // An event stream opened and left: its heartbeat must go with it.
    await ask(owner, '/api/events', true);
    expect(await ask({ host: '127.0.0.1', port: host.port }, '/')).toBeGreaterThan(0);

    await vi.advanceTimersByTimeAsync(HOUR);
    expect(census.repeating()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
