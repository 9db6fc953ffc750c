// The window's HTTP port with its token, which it never hands to a stranger. Once the window has
// lost touch with its engine, whoever answers on the port now might not be that engine (it may
// have stopped, and another program taken the port), so before the token is sent again the
// server must prove it holds the same token: an HMAC of a fresh nonce, checked here. A server that
// cannot is not sent the token; the window says how to open it again instead.
import type { HttpPort } from '../../shared/client/http';
import { HELLO_PATH } from '../../shared/client/http';
import { LanesError } from '../../shared/errors';

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

async function expectedProof(token: string, nonce: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, enc.encode(`lanes-hello:${nonce}`)));
}

export const RESTARTED =
  'Lanes restarted (or stopped) since this window was opened, so it no longer has a key to it. Open the window again from the tray menu, or with `lanes open`.';

/** A reloaded page whose kept key the engine no longer takes: the engine restarted, and its key is new at every start. */
export const RELOADED_STALE =
  'Lanes has restarted since this window was opened, and its key is new at every start. Open the window again from the tray menu, or with `lanes open`.';

export function guardedPort(inner: HttpPort, token: () => Promise<string | null>): HttpPort {
  /** Whether the engine answering now has shown it is the one that gave this window its token. */
  let trusted = true;

  const auth = async (): Promise<Record<string, string>> => {
    const t = await token();
    if (t === null) return {};
    if (!trusted) {
      const nonce = hex(crypto.getRandomValues(new Uint8Array(16)).buffer);
      // No token travels with this: if the proof is wrong, nothing was given away.
      const answer = await inner.send('GET', `${HELLO_PATH}?nonce=${nonce}`, {}, undefined);
      const proof = answer.status === 200 ? (JSON.parse(answer.text) as { proof?: unknown }).proof : null;
      if (proof !== (await expectedProof(t, nonce))) throw new LanesError('gone', RESTARTED);
      trusted = true;
    }
    return { Authorization: `Bearer ${t}` };
  };
  const distrust = (error: unknown) => {
    if (error instanceof LanesError && error.code === 'unavailable') trusted = false;
    throw error;
  };

  return {
    async send(method, path, headers, body) {
      return inner.send(method, path, { ...headers, ...(await auth()) }, body).catch(distrust);
    },
    async stream(path, headers, signal) {
      const res = await inner.stream(path, { ...headers, ...(await auth()) }, signal).catch(distrust);
      // A stream that ends is a connection lost: the next one proves the server first.
      const chunks = res.chunks;
      return {
        ...res,
        chunks: (async function* () {
          try {
            yield* chunks;
          } finally {
            trusted = false;
          }
        })(),
      };
    },
  };
}
