// Splits a stream into lines without letting one line grow without bound: a line longer than
// `maxBytes` is reported once and its bytes dropped up to the next newline, so a command that
// prints a gigabyte without a newline costs at most `maxBytes` of memory.
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private dropping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverlong: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      if (!this.dropping) this.onLine(Buffer.concat(this.parts).toString('utf8').replace(/\r$/, ''));
      this.parts = [];
      this.size = 0;
      this.dropping = false;
      start = nl + 1;
    }
    this.take(chunk.subarray(start));
  }

  private take(bytes: Buffer): void {
    if (this.dropping || bytes.length === 0) return;
    if (this.size + bytes.length > this.maxBytes) {
      this.dropping = true;
      this.parts = [];
      this.size = 0;
      this.onOverlong();
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }
}
