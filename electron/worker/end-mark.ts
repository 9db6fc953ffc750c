// Finding the end of one job's output in a stream that jobs share one after another: the job
// starter prints a mark no job prints by chance once the job has ended (spawn-helper.ts). What
// comes before the mark is the job's; the mark itself is nobody's. A chunk that ends in what may
// be the mark's beginning keeps that part back until the next chunk says whether it was. Pure.

export class EndMark {
  private readonly mark: Buffer;
  /** Bytes held back: the start of a chunk's end that may be the start of the mark. */
  private held: Buffer | null = null;
  private seen = false;

  constructor(mark: string) {
    this.mark = Buffer.from(mark, 'latin1');
  }

  /** Whether the mark has come (or is no longer waited for). */
  get reached(): boolean {
    return this.seen;
  }

  /** The stream's end will never come as a mark (its writer died): everything is the job's from now, what was held back first. */
  giveUp(): Buffer | null {
    this.seen = true;
    const held = this.held;
    this.held = null;
    return held;
  }

  /** The job's part of `chunk` (with what was held back before it), and whether the mark came. */
  feed(chunk: Buffer): { data: Buffer; reached: boolean } {
    if (this.seen) return { data: this.take(chunk), reached: true };
    const whole = this.held ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = null;
    const at = whole.indexOf(this.mark);
    if (at >= 0) {
      this.seen = true;
      // After the mark: written by what the job left running, until the worker ended it.
      return { data: Buffer.concat([whole.subarray(0, at), whole.subarray(at + this.mark.length)]), reached: true };
    }
    const keep = this.partAtEnd(whole);
    if (keep > 0) this.held = Buffer.from(whole.subarray(whole.length - keep));
    return { data: whole.subarray(0, whole.length - keep), reached: false };
  }

  /** Once the mark has come: what was held back, if anything, and the chunk. */
  private take(chunk: Buffer): Buffer {
    if (this.held === null) return chunk;
    const all = Buffer.concat([this.held, chunk]);
    this.held = null;
    return all;
  }

  /** How many bytes at the end of `data` are the mark's first bytes (the longest such run). */
  private partAtEnd(data: Buffer): number {
    const first = this.mark[0]!;
    for (let at = Math.max(0, data.length - this.mark.length + 1); at < data.length; at++) {
      if (data[at] !== first) continue;
      const n = data.length - at;
      if (data.subarray(at).equals(this.mark.subarray(0, n))) return n;
    }
    return 0;
  }
}
