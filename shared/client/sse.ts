// The one Server-Sent Events parser, for every client that reads the engine's event stream
// (a browser's EventSource cannot send an Authorization header, and the token must not go into
// a URL, so clients read the stream themselves). Follows the WHATWG event-stream rules that matter here: `id`, `event`, multi-line `data`,
// comments (`:`) as keep-alives, CR/LF/CRLF line ends.
export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';
  /** How far into `buffer` no line end can start (the last character may be half a CRLF). */
  private scanned = 0;
  private id: string | null = null;
  private event = '';
  private data: string[] = [];

  /** Feed decoded text; returns the messages it completed. */
  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    // Only the new text is searched, and the buffer is cut once per chunk: an event of many
    // megabytes arriving in small chunks costs linear time, not quadratic.
    const eol = /\r\n|\r|\n/g;
    eol.lastIndex = this.scanned;
    let pos = 0;
    for (let match = eol.exec(this.buffer); match; match = eol.exec(this.buffer)) {
      // A lone CR at the end may be the first half of CRLF: wait for more text.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const message = this.line(this.buffer.slice(pos, match.index));
      pos = match.index + match[0].length;
      if (message) out.push(message);
    }
    this.buffer = this.buffer.slice(pos);
    this.scanned = Math.max(0, this.buffer.length - 1);
    return out;
  }

  private line(line: string): SseMessage | null {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = '';
        return null;
      }
      const message = { id: this.id, event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return message;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return null;
  }
}
