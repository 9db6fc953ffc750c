// A worker as an Electron utility process, the engine's WorkerProcess over it: exit reported once,
// nothing posted to a process that ended, kill at once, and the window made sandboxed.
import { describe, expect, it, vi } from 'vitest';
import { UtilityWorker, cleanEnv } from '../../electron/shell/utility-worker.js';
import { windowOptions } from '../../electron/shell/window-options.js';

function child(pid: number | undefined = undefined) {
  return { pid, postMessage: vi.fn(), kill: vi.fn(() => true) };
}

describe('UtilityWorker', () => {
  it('knows its pid once spawned, passes messages both ways, reports exit once', () => {
    const c = child();
    const worker = new UtilityWorker(c, 'linux', vi.fn());
    expect(worker.pid).toBeUndefined();
    c.pid = 42;
    worker.spawned();
    expect(worker.pid).toBe(42);
    const received: unknown[] = [];
    const exits: unknown[] = [];
    worker.onMessage((m) => received.push(m));
    worker.onExit((code, signal) => exits.push([code, signal]));
    worker.received({ t: 'pull' });
    worker.received({ type: 'ready' });
    worker.send({ t: 'drain' });
    worker.exited(0);
    worker.exited(0);
    worker.send({ t: 'drain' });
    // Checked as it comes in: a message of the protocol, and one of no shape the engine knows.
    expect(received).toEqual([
      { ok: true, message: { t: 'pull' } },
      { ok: false, why: expect.any(String) },
    ]);
    expect(c.postMessage).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([[0, null]]);
  });

  it('an exit before spawn (a bad entry) is still reported', () => {
    const worker = new UtilityWorker(child(), 'linux', vi.fn());
    const exits: unknown[] = [];
    worker.onExit((code) => exits.push(code));
    worker.exited(1);
    expect(exits).toEqual([1]);
  });

  it('kills with SIGKILL where signals exist, else through Electron; not after exit', () => {
    const signal = vi.fn();
    const unix = child(7);
    new UtilityWorker(unix, 'darwin', signal).kill();
    expect(signal).toHaveBeenCalledWith(7, 'SIGKILL');
    expect(unix.kill).not.toHaveBeenCalled();

    const windows = child(8);
    new UtilityWorker(windows, 'win32', signal).kill();
    expect(windows.kill).toHaveBeenCalledTimes(1);

    const gone = child(9);
    const vanished = vi.fn(() => {
      throw new Error('ESRCH');
    });
    new UtilityWorker(gone, 'linux', vanished).kill();
    expect(gone.kill).toHaveBeenCalledTimes(1);

    const ended = child(10);
    const worker = new UtilityWorker(ended, 'linux', signal);
    worker.exited(0);
    signal.mockClear();
    worker.kill();
    expect(signal).not.toHaveBeenCalled();
    expect(ended.kill).not.toHaveBeenCalled();
  });

  it('hands Electron only variables that are set', () => {
    expect(cleanEnv({ A: '1', B: undefined, C: '' })).toEqual({ A: '1', C: '' });
  });
});

describe('the window', () => {
  it('is sandboxed and isolated, without Node; Linux is given the icon', () => {
    const linux = windowOptions({ preload: '/p.cjs', icon: '/i.png', platform: 'linux' });
    expect(linux.webPreferences).toEqual({ preload: '/p.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, spellcheck: false });
    expect(linux.icon).toBe('/i.png');
    expect(windowOptions({ preload: '/p.cjs', icon: '/i.png', platform: 'darwin' }).icon).toBeUndefined();
  });
});
