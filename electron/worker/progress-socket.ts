// Where a shell job's `lanes progress` reaches its worker: a socket of this worker alone, in a
// directory only its user can enter (a named pipe on Windows). Each connection carries one line
// — `{"token": …, "progress": …}` — and is answered with one: `ok`, or why it was ignored. The
// token is the running job's own (job-env.ts gives it), so only that job speaks for itself; a
// connection that sends more than a line, or takes its time, is cut off.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOCKET_PATH_MAX, socketDirProblem } from '../paths/socket-place.js';

/** One report line is far shorter than this; a longer one is not a report. */
const LINE_MAX_BYTES = 4096;
/** A connection that has not sent its line by then is closed. */
const LINE_WAIT_MS = 5_000;
/** Connections at once: a job that opens more waits, it cannot make the worker hold more. */
const CONNECTIONS_MAX = 8;

/** Hears one report for the job whose token it carries; answers `ok`, or why it was not read. */
export type ProgressListener = (token: string, progress: unknown) => string;

export interface ProgressSocket {
  path: string;
  close(): void;
}

/** A fresh token for a run: what its `lanes progress` must show. */
export const newToken = (): string => randomBytes(16).toString('hex');

/**
 * The socket, or null where none can be had here (the temporary directory's path too long for a
 * socket address, or not private): the worker's jobs then run without LANES_PROGRESS_SOCKET, and
 * `lanes progress` in them says their worker cannot hear it. Said once on the worker's stderr (the engine's log).
 */
export function openProgressSocket(listener: ProgressListener): ProgressSocket | null {
  const windows = process.platform === 'win32';
  let dir: string | null = null;
  if (!windows) {
    try {
      dir = mkdtempSync(join(tmpdir(), 'lanes-progress-'));
    } catch (err) {
      return cannot(`no private folder for it in ${tmpdir()} (${(err as Error).message})`);
    }
    const problem = socketDirProblem(dir) ?? (Buffer.byteLength(join(dir, 's')) > SOCKET_PATH_MAX ? `${dir} is too long for a socket address` : null);
    if (problem) {
      rmSync(dir, { recursive: true, force: true });
      return cannot(`${problem}; set TMPDIR to a shorter, private folder`);
    }
  }
  const path = dir ? join(dir, 's') : `\\\\.\\pipe\\lanes-progress-${process.pid}-${newToken()}`;
  const server: Server = createServer((socket) => serve(socket, listener));
  server.maxConnections = CONNECTIONS_MAX;
  server.on('error', (err) => void cannot(`its socket stopped listening (${err.message})`));
  server.listen(path);
  server.unref();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', close);
  return { path, close };
}

function cannot(why: string): null {
  process.stderr.write(`lanes worker ${process.pid}: jobs here cannot report progress: ${why}\n`);
  return null;
}

function serve(socket: Socket, listener: ProgressListener): void {
  let text = '';
  socket.setEncoding('utf8');
  socket.setTimeout(LINE_WAIT_MS, () => socket.destroy());
  socket.on('error', () => {});
  socket.on('data', (chunk: string) => {
    text += chunk;
    const nl = text.indexOf('\n');
    if (nl < 0 && text.length <= LINE_MAX_BYTES) return;
    socket.removeAllListeners('data');
    socket.end(`${nl < 0 ? 'ignored: a report longer than a line' : answer(text.slice(0, nl), listener)}\n`);
  });
}

function answer(line: string, listener: ProgressListener): string {
  let m: { token?: unknown; progress?: unknown };
  try {
    m = JSON.parse(line) as typeof m;
  } catch {
    return 'ignored: a report that is not JSON';
  }
  if (m === null || typeof m !== 'object' || typeof m.token !== 'string') return 'ignored: a report without its job\'s token';
  return listener(m.token, m.progress);
}
