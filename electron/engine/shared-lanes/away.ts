// Calls to Redis that do not wait for it once it has gone away (closed, or not answering): the
// caller hears AWAY at once and goes on (a worker is answered with nothing, so it is idle and the
// sizer may hand its room on), while the call itself goes on by itself, and what it answers, when
// Redis answers, goes to the caller's `late` (record an outcome, give a job back unrun).
import type { LaneConnections } from './connections.js';

/** What a call answers when Redis went away before its answer came. */
export const AWAY = Symbol('away');

export class AwayCalls {
  /** Answers still to come, for calls whose callers went on: the lane waits for them before it closes. */
  private readonly late = new Set<Promise<unknown>>();

  constructor(private readonly conns: LaneConnections) {}

  settled(): Promise<unknown> {
    return Promise.allSettled([...this.late]);
  }

  /** `call`'s answer; or AWAY when Redis stops being reachable first, and then its answer, when it comes, goes to `late`. */
  unlessAway<T>(call: Promise<T>, late: (answer: T) => Promise<unknown>): Promise<T | typeof AWAY> {
    return new Promise((resolve, reject) => {
      let gone = false;
      const abandon = () => {
        gone = true;
        resolve(AWAY);
        const after = call.then(late).catch(() => {});
        this.late.add(after);
        void after.finally(() => this.late.delete(after));
      };
      if (!this.conns.reachable) return abandon();
      const off = this.conns.whileReachable(abandon);
      call.then(
        (answer) => {
          off();
          if (!gone) resolve(answer);
        },
        (error: unknown) => {
          off();
          if (!gone) reject(error as Error);
        },
      );
    });
  }
}
