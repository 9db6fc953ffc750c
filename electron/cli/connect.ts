// Finding this person's engine and talking to it: through its socket in the data directory (or,
// when that path is too long for a socket, where the engine recorded it in daemon.json), whose
// permissions are the authentication, so no secret is ever sent. Before connecting, the CLI
// checks that the directories are private and the socket is its owner's own: it never talks to
// an endpoint another user could have put there.
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { readDaemonInfo } from '../api/daemon-info.js';
import { LanesClient } from '../../shared/client/client.js';
import { httpTransport, WINDOW_PATH, type WindowAddress } from '../../shared/client/http.js';
import type { Transport } from '../../shared/client/transport.js';
import { LanesError } from '../../shared/errors.js';
import { dirProblem } from '../paths/private-dir.js';
import { fixedSocketPath, socketDirProblem } from '../paths/socket-place.js';
import { nodeHttpPort } from './node-http.js';
import { howToStart } from './standalone.js';

/** One line: that nothing runs, why we think so, and how to start it with this `lanes`. */
export function noEngine(dataDir: string, why: string): LanesError {
  return new LanesError('unavailable', `no Lanes engine is running for ${dataDir} (${why}); ${howToStart()}.`);
}

/** The engine's socket, checked: in a private directory, a socket, and this user's own. */
export function engineSocket(dataDir: string): string {
  const fixed = fixedSocketPath(dataDir);
  if (process.platform === 'win32' && fixed) return fixed;
  let problem: string | null;
  try {
    problem = dirProblem(dataDir);
  } catch {
    throw noEngine(dataDir, 'the directory does not exist');
  }
  if (problem) throw new LanesError('forbidden', `lanes will not talk to an engine through ${problem}`);
  // Read only from the private directory just checked: only its owner could have written it.
  const socket = fixed ?? readDaemonInfo(dataDir)?.socket;
  if (socket === undefined) throw noEngine(dataDir, 'it records no socket');
  const away = socket === fixed ? null : socketDirProblem(dirname(socket));
  if (away) throw new LanesError('forbidden', `lanes will not talk to an engine through ${socket}: ${away}`);
  const st = lstatSync(socket, { throwIfNoEntry: false });
  if (!st) throw noEngine(dataDir, 'nothing listens there');
  if (!st.isSocket() || st.uid !== process.getuid?.()) throw new LanesError('forbidden', `${socket} is not an engine's socket of yours; remove it and start the engine again`);
  return socket;
}

export interface Connection {
  client: LanesClient;
  /** The window's address (with its token) and a one-time address for a browser. */
  window(): Promise<WindowAddress>;
}

export function connect(dataDir: string): Connection {
  const socketPath = engineSocket(dataDir);
  const port = nodeHttpPort(() => ({ socketPath }));
  const http = httpTransport(port);
  const refused = (error: unknown) => (error instanceof LanesError && error.code === 'unavailable' ? noEngine(dataDir, 'nothing answers on its socket') : error);
  const transport: Transport = {
    request: (name, input) => http.request(name, input).catch((error: unknown) => Promise.reject(refused(error))),
    listen: (since, sink) => http.listen(since, sink),
  };
  return {
    client: new LanesClient(transport),
    async window() {
      const answer = await port.send('GET', WINDOW_PATH, {}, undefined).catch((error: unknown) => Promise.reject(refused(error)));
      if (answer.status !== 200) throw LanesError.from((JSON.parse(answer.text) as { error?: unknown }).error, 'the engine did not give the window’s address');
      return JSON.parse(answer.text) as WindowAddress;
    },
  };
}
