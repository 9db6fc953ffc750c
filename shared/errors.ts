// The one error a request can end in, on every side: the engine throws it, the HTTP API and IPC
// carry its body, and every client rethrows it as the same class, so a caller reads `code` and
// `field` the same way whether it talked to the engine in-process, over IPC or over HTTP.

export type ErrorCode =
  | 'bad_request'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'too_large'
  /** The engine this client knew is gone (it restarted); this client cannot reach the new one. */
  | 'gone'
  | 'unavailable'
  /** A shared lane's queue is on a Redis the engine cannot reach now: nothing was done (docs/shared-lanes.md). */
  | 'queue_unreachable'
  | 'insufficient_storage'
  | 'internal';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** The input field at fault, when there is one. */
  field?: string;
}

/** HTTP status for each code; the API answers with it and clients read it back. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  gone: 410,
  internal: 500,
  unavailable: 503,
  queue_unreachable: 503,
  insufficient_storage: 507,
};

export class LanesError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'LanesError';
  }

  get body(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) };
  }

  /** Rebuilds the error from a body that crossed a process boundary; anything malformed is internal. */
  static from(body: unknown, fallback: string): LanesError {
    const b = body as Partial<ErrorBody> | null;
    if (b && typeof b.message === 'string' && typeof b.code === 'string' && b.code in HTTP_STATUS) {
      return new LanesError(b.code as ErrorCode, b.message, typeof b.field === 'string' ? b.field : undefined);
    }
    return new LanesError('internal', fallback);
  }
}

export const badRequest = (message: string, field?: string) => new LanesError('bad_request', message, field);
export const notFound = (message: string, field?: string) => new LanesError('not_found', message, field);
export const conflict = (message: string, field?: string) => new LanesError('conflict', message, field);
