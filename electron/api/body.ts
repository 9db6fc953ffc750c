// Reading a JSON request body with a ceiling on its size, so a runaway script cannot make the
// engine buffer gigabytes.
import type { IncomingMessage } from 'node:http';
import { bodyText } from './strict-input.js';

/** 8 MiB: room for a batch of 10,000 job specs (addJobs), far below trouble. */
export const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

const tooLarge = (limit: number) => new BodyError(413, `the request body is larger than ${limit.toLocaleString('en-US')} bytes`);

/** The parsed body, or undefined when there is none. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  // Refuse before reading a byte when the client says up front that it is too big.
  if (declared > limit) throw tooLarge(limit);
  const { chunks, size } = await readAll(req, limit);
  if (size === 0) return undefined;
  const type = (req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  // A form post from a foreign page arrives as text/plain or urlencoded; only JSON is ours.
  if (type !== 'application/json') throw new BodyError(415, `send the body as application/json, not ${type}`);
  const text = bodyText(Buffer.concat(chunks));
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new BodyError(400, `the request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The body's bytes, up to `limit` (past it the request is destroyed, as breaking out of an async
 * iteration would). Events rather than `for await`: the iterator's machinery was a noticeable
 * share of a one-job request's time.
 */
function readAll(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.destroy();
      reject(tooLarge(limit));
    };
    req.on('data', onData);
    req.once('end', () => resolve({ chunks, size }));
    req.once('error', reject);
  });
}
