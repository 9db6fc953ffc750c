// Engine events come in bursts (thousands of job events when a batch lands); the tray needs one
// rebuild per burst, not one per event. The first event schedules a run after `delayMs`; events
// until then ride along. No timer runs while nothing happens.
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface Coalesced {
  /** Ask for a run; cheap to call on every event. */
  request(): void;
  /** Run now if one is pending (e.g. just before the menu opens). */
  flush(): void;
  cancel(): void;
}

export function coalesce(run: () => void, delayMs: number, timers: Timers = realTimers): Coalesced {
  let pending: unknown = null;
  const fire = () => {
    pending = null;
    run();
  };
  return {
    request() {
      if (pending === null) pending = timers.setTimeout(fire, delayMs);
    },
    flush() {
      if (pending === null) return;
      timers.clearTimeout(pending);
      fire();
    },
    cancel() {
      if (pending !== null) timers.clearTimeout(pending);
      pending = null;
    },
  };
}
