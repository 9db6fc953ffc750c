// Answers in the one shape every client reads: JSON, never cached, and errors as the contract's
// LanesError body with the status its code maps to.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { HTTP_STATUS, LanesError, type ErrorBody, type ErrorCode } from '../../shared/errors.js';
import { BodyError } from './body.js';

export function sendJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...PLAIN_HEADERS,
    ...extra,
  });
  res.end(text);
}

/** What every answer carries besides its body's type and length. */
const PLAIN_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY' };

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

/**
 * What Node's parser could not read as HTTP (a raw byte where the request line wants a token, a
 * header too large, headers too slow): answered as any refusal is, in JSON with the same
 * headers, then the connection closed, since nothing after it can be trusted to be a request.
 * Node's own answer is a bare 400 no client of ours reads.
 */
export function answerUnparsed(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'Request Header Fields Too Large', 'too_large', 'the request headers are too large'] as const)
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'Request Timeout', 'bad_request', 'the request did not arrive in time'] as const)
        : ([400, 'Bad Request', 'bad_request', 'the request is not valid HTTP: its request line or a header could not be read'] as const);
  const body = JSON.stringify({ error: { code, message } satisfies ErrorBody });
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...PLAIN_HEADERS, Connection: 'close' };
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
}
