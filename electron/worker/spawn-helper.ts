// A worker's job starter: one long-lived /bin/sh per worker that forks each job. Forking the
// worker itself (a Node process of some 50 MB and a dozen threads) cost each short job about
// 1.2 ms of CPU, and stepping the worker into the job's cgroup and back another 0.5 ms; a fork of
// sh costs a tenth of that, and the child moves only itself. The worker writes one line per job to
// the shell's input (helper-job.ts, helperBody); the shell runs it in a subshell in the foreground, then
// prints an end mark on the job's two output pipes and the job's status on a pipe of its own.
// The pipes are shared by the jobs one after another: a job's output is what came before its end
// mark, and the job's cgroup is empty by then, so nothing of it can write after the mark (where it
// was not, the worker asks for a second mark once the group is ended: `flush`).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { baseEnv } from './job-env.js';
import { EndMark } from './end-mark.js';

/** Where a job's output goes while it runs. */
export interface HelperSink {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
}

/** How a job's run through the helper ended: its status as sh gives it, or the helper's own end. */
export type HelperEnd = { status: number } | { died: string };

interface Current {
  sink: HelperSink;
  marks: [EndMark, EndMark];
  status: number | null;
  end: (e: HelperEnd) => void;
}

export class SpawnHelper {
  private readonly child: ChildProcess;
  private readonly input: Writable;
  private current: Current | null = null;
  /** Set once the shell is gone: why, in words. */
  private gone: string | null = null;
  private readonly tag = randomBytes(9).toString('hex');
  private marks = 0;

  constructor() {
    // fd 0 its commands, 1 and 4 the jobs' stdout and stderr, 3 the statuses. Its own stderr
    // goes nowhere: sh says "Killed" there when a job dies of a signal, which is no job's output.
    this.child = spawn('/bin/sh', ['-s'], { env: baseEnv(), detached: true, stdio: ['pipe', 'pipe', 'ignore', 'pipe', 'pipe'], windowsHide: true });
    const [input, out, , statuses, err] = this.child.stdio as [Writable, Readable, null, Readable, Readable];
    this.input = input;
    input.on('error', () => {});
    out.on('data', (d: Buffer) => this.output(0, d));
    err.on('data', (d: Buffer) => this.output(1, d));
    let rest = '';
    statuses.on('data', (d: Buffer) => {
      const lines = (rest + d.toString('latin1')).split('\n');
      rest = lines.pop()!;
      for (const line of lines) this.statusLine(line);
    });
    this.child.on('error', (e) => this.died(`could not be started (${e.message})`));
    this.child.on('exit', (code, signal) => this.died(signal ? `was killed by ${signal}` : `exited with code ${code}`));
  }

  get alive(): boolean {
    return this.gone === null;
  }

  /** A mark no job prints by chance: this helper's random tag, and a count. */
  private nextMark(): string {
    this.marks += 1;
    return `\x01lanes-end-${this.tag}-${this.marks}\x01`;
  }

  /**
   * Runs the subshell `body` with its output to `sink`; resolves once its status has come and
   * both streams have reached the end mark, or the helper has died.
   */
  run(body: string, sink: HelperSink): Promise<HelperEnd> {
    if (this.gone !== null) return Promise.resolve({ died: this.gone });
    const mark = this.nextMark();
    return new Promise<HelperEnd>((end) => {
      this.current = { sink, marks: [new EndMark(mark), new EndMark(mark)], status: null, end };
      this.input.write(`(${body}) </dev/null 2>&4 3>&- 4>&-; __s=$?; ${printMarks(mark)}; echo "x $__s" >&3\n`);
    });
  }

  /**
   * After a job whose cgroup still held processes at its end: once they are ended, a second mark
   * on both streams, so what they wrote before they went is read into the job's logs too.
   */
  flush(): Promise<HelperEnd> {
    const current = this.current;
    if (current === null || this.gone !== null) return Promise.resolve({ died: this.gone ?? 'has no job' });
    const mark = this.nextMark();
    return new Promise<HelperEnd>((end) => {
      current.marks = [new EndMark(mark), new EndMark(mark)];
      current.end = end;
      this.input.write(`${printMarks(mark)}; echo "x $__s" >&3\n`);
    });
  }

  /** The job is over: what comes on its streams now is nobody's. */
  release(): void {
    this.current = null;
  }

  /** Ends the helper: its input closes, and it leaves once the job it runs (if any) has. */
  stop(): void {
    this.input.end();
  }

  /** Waits, at most `ms`, for the helper's pipes to close (after it died with a job). */
  closed(ms: number): Promise<void> {
    return new Promise<void>((ok) => {
      const timer = setTimeout(ok, ms);
      const done = () => {
        clearTimeout(timer);
        ok();
      };
      if (this.child.stdout?.closed && this.child.stdio[4]?.closed) return done();
      this.child.once('close', done);
    });
  }

  private output(stream: 0 | 1, chunk: Buffer): void {
    const current = this.current;
    if (current === null) return;
    const { data, reached } = current.marks[stream].feed(chunk);
    if (data.length > 0) (stream === 0 ? current.sink.stdout : current.sink.stderr)(data);
    if (reached) this.settleIfDone();
  }

  private statusLine(line: string): void {
    const current = this.current;
    const m = /^x (\d{1,3})$/.exec(line);
    if (current === null || m === null) return;
    current.status = Number(m[1]);
    this.settleIfDone();
  }

  private settleIfDone(): void {
    const current = this.current;
    if (current === null || current.status === null || !current.marks[0].reached || !current.marks[1].reached) return;
    const status = current.status;
    current.status = null;
    current.end({ status });
  }

  private died(why: string): void {
    if (this.gone !== null) return;
    this.gone = why;
    // What the job wrote before its starter went is kept; the rest of the stream is read to its end.
    const current = this.current;
    if (current) {
      const [out, err] = current.marks.map((m) => m.giveUp());
      if (out) current.sink.stdout(out);
      if (err) current.sink.stderr(err);
      current.end({ died: why });
    }
  }
}

const printMarks = (mark: string) => {
  // printf's format says the mark's control bytes as octal escapes; the rest is letters, digits and dashes.
  const format = `'${mark.split('\x01').join('\\001')}'`;
  return `printf ${format}; printf ${format} >&4`;
};
