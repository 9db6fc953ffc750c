// Errors cross the IPC boundary as values: Electron's invoke() would flatten a thrown error into
// "Error invoking remote method …", losing the code and the field the window shows beside an input.
import type { Result } from '../../shared/bridge.js';
import type { LanesErrorBody } from '../../shared/requests.js';
import { requests, type RequestName } from '../../shared/requests.js';

type ErrorBody = LanesErrorBody['error'];

function hasBody(error: unknown): error is { toBody(): LanesErrorBody } {
  return typeof error === 'object' && error !== null && typeof (error as { toBody?: unknown }).toBody === 'function';
}

export function errorBody(error: unknown): ErrorBody {
  if (hasBody(error)) return error.toBody().error;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message };
}

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}

export async function toResult<T>(run: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: errorBody(error) };
  }
}

export function failure(code: ErrorBody['code'], message: string): Result<never> {
  return { ok: false, error: { code, message } };
}
