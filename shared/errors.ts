// The one error a request can end in, on every side: the engine throws it, the HTTP API and IPC
// carry its body, and every client rethrows it as the same class, so a caller reads `code` and
// `field` the same way whether it talked to the engine in-process, over IPC or over HTTP.
import type { CleanedJob } from './model.js';

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
  /** A not_found for a job that was cleaned: what is kept of it (model.ts, CleanedJob). */
  cleaned?: CleanedJob;
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
    readonly cleaned?: CleanedJob,
  ) {
    super(message);
    this.name = 'LanesError';
  }

  get body(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}), ...(this.cleaned ? { cleaned: this.cleaned } : {}) };
  }

  /** Rebuilds the error from a body that crossed a process boundary; anything malformed is internal. */
  static from(body: unknown, fallback: string): LanesError {
    const b = body as Partial<ErrorBody> | null;
    if (b && typeof b.message === 'string' && typeof b.code === 'string' && b.code in HTTP_STATUS) {
      return new LanesError(b.code as ErrorCode, b.message, typeof b.field === 'string' ? b.field : undefined, cleanedOf(b.cleaned));
    }
    return new LanesError('internal', fallback);
  }
}

const CLEANED_STATES: readonly unknown[] = ['succeeded', 'failed', 'cancelled'];
const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const wholeOrNull = (v: unknown): v is number | null => v === null || whole(v);

/** A cleaned job's record as it came across a boundary: exactly its six fields, or nothing. */
function cleanedOf(v: unknown): CleanedJob | undefined {
  const c = v as Partial<CleanedJob> | null | undefined;
  if (!c || typeof c !== 'object' || !whole(c.id) || typeof c.lane !== 'string' || !CLEANED_STATES.includes(c.state)) return undefined;
  if (!wholeOrNull(c.exitCode) || !wholeOrNull(c.finishedAt) || !wholeOrNull(c.cleanedAt)) return undefined;
  return { id: c.id, lane: c.lane, state: c.state!, exitCode: c.exitCode, finishedAt: c.finishedAt, cleanedAt: c.cleanedAt };
}

export const badRequest = (message: string, field?: string) => new LanesError('bad_request', message, field);
export const notFound = (message: string, field?: string) => new LanesError('not_found', message, field);
/** A job that was cleaned, asked for: not_found, in its own words, carrying what is kept of it. */
export const cleanedJob = (message: string, cleaned: CleanedJob) => new LanesError('not_found', message, undefined, cleaned);
export const conflict = (message: string, field?: string) => new LanesError('conflict', message, field);
