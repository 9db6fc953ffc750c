// Answers in the one shape every client reads: JSON, never cached, and errors as the contract's
// LanesError body with the status its code maps to.
import type { ServerResponse } from 'node:http';
import { HTTP_STATUS, LanesError, type ErrorBody, type ErrorCode } from '../../shared/errors.js';
import { BodyError } from './body.js';

export function sendJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string, field?: string, extra: Record<string, string> = {}): void {
  const error: ErrorBody = { code, message, ...(field ? { field } : {}) };
  sendJson(res, status, { error }, extra);
}

/** Whatever a request ended in, answered; an unexpected error is logged, never thrown on. */
export function sendFailure(res: ServerResponse, err: unknown, log: (line: string) => void): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // An oversized upload is answered at once; closing the connection stops the rest of it.
  if (err instanceof BodyError) {
    return sendError(res, err.status, err.status === 413 ? 'too_large' : 'bad_request', err.message, undefined, err.status === 413 ? { Connection: 'close' } : {});
  }
  if (err instanceof URIError) return sendError(res, 400, 'bad_request', 'the URL is not validly encoded');
  if (err instanceof LanesError) return sendJson(res, HTTP_STATUS[err.code], { error: err.body });
  log(`api: ${(err as Error)?.stack ?? String(err)}`);
  sendError(res, 500, 'internal', 'the engine hit an internal error; its log has the details');
}
