// The window's requests over IPC, answered without Electron (ipc.ts only hands them over). Errors
// cross as values: Electron's invoke() would flatten a thrown error into "Error invoking remote
// method …", losing the code and the field the window shows beside an input.
import type { Result } from '../../shared/client/ipc.js';
import { LanesError, type ErrorBody, type ErrorCode } from '../../shared/errors.js';
import { isRequestName, WINDOW_REQUESTS } from '../../shared/requests.js';
import type { Engine } from '../engine/index.js';
import { isAppFrame } from './renderer-origin.js';

export function errorBody(error: unknown): ErrorBody {
  if (error instanceof LanesError) return error.body;
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export async function toResult<T>(run: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: errorBody(error) };
  }
}

const failure = (code: ErrorCode, message: string): Result<never> => ({ ok: false, error: { code, message } });

/**
 * The answer to one request from a frame at `frameUrl`: only our own page is answered, and only
 * the requests the window makes (the input is the engine's to validate, as over HTTP).
 */
export async function answerRequest(
  request: { frameUrl: string | undefined; name: unknown; input: unknown },
  engine: Pick<Engine, 'request'> | null,
): Promise<Result<unknown>> {
  const { frameUrl, name, input } = request;
  if (!isAppFrame(frameUrl)) return failure('forbidden', 'only the Lanes window may make requests');
  if (!isRequestName(name)) return failure('bad_request', `unknown request "${String(name)}"`);
  if (!WINDOW_REQUESTS.has(name)) return failure('forbidden', `the window does not make "${name}" requests`);
  if (!engine) return failure('internal', 'Lanes is not running right now (see the tray menu)');
  return toResult(() => engine.request(name, input));
}
