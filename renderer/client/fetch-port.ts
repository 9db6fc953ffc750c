// The client's HTTP port in a browser: fetch with relative URLs, so the token only ever goes to
// the origin that served this page.
import { LanesError } from '../../shared/errors';
import type { HttpPort } from '../../shared/client/http';

const unreachable = () => new LanesError('unavailable', 'Cannot reach the Lanes engine. Is `lanes daemon` running?');

export const fetchPort: HttpPort = {
  async send(method, path, headers, body) {
    let res: Response;
    try {
      res = await fetch(path, { method, headers, body, cache: 'no-store' });
    } catch {
      throw unreachable();
    }
    return { status: res.status, text: await res.text() };
  },
  async stream(path, headers, signal) {
    let res: Response;
    try {
      res = await fetch(path, { headers, signal, cache: 'no-store' });
    } catch (error) {
      throw signal.aborted ? error : unreachable();
    }
    const body = res.body;
    async function* chunks(): AsyncGenerator<string> {
      if (!body) return;
      const reader = body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    }
    return { status: res.status, chunks: chunks(), text: () => res.text() };
  },
};
