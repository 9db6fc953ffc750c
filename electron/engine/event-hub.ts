// Fan-out of engine events with a short memory, so a client that drops its connection can ask
// for everything after the last sequence number it saw instead of refetching the world.
//
// Sequence numbers are unique across runs of the engine: each run counts up from its start time
// in ms × 1000. The engine counts from the start again after a restart, so a client resuming with
// a number from the previous run would otherwise be handed this run's events as if they were the
// ones it missed; with a base, an old number is plainly not from this run and the answer is
// "reset". (A run would need 1,000 events per ms, sustained, to reach the next run's base.)
import type { EventMap, EventName, LanesEvent } from '../../shared/events.js';

export type EventListener = (event: LanesEvent) => void;

export class EventHub {
  private seq: number;
  private readonly ring: LanesEvent[] = [];
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly base: number,
    /** Told when a listener throws: that listener's failure is its own, never the emitter's. */
    private readonly onListenerError: (error: unknown) => void = () => {},
    private readonly capacity = 20_000,
  ) {
    this.seq = base;
  }

  emit<K extends EventName>(type: K, data: EventMap[K]): void {
    const event = { seq: ++this.seq, type, data } as LanesEvent;
    this.ring.push(event);
    // Trim in chunks: shifting one element per emit is O(n) on a full ring.
    if (this.ring.length > this.capacity * 1.25) this.ring.splice(0, this.ring.length - this.capacity);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Events after `seq`, oldest first; `null` when some of them cannot be replayed (forgotten, or
   * `seq` is not one of this run's), in which case the client must reload its snapshots.
   */
  since(seq: number): LanesEvent[] | null {
    if (seq < this.base || seq > this.seq) return null;
    if (seq === this.seq) return [];
    const first = this.ring[0];
    if (!first || first.seq > seq + 1) return null;
    return this.ring.slice(seq + 1 - first.seq);
  }

  /**
   * Subscribes `listener` to everything after `since` (0: from now): the missed events first,
   * then the live feed, in one synchronous step, so nothing falls between them and nothing comes
   * twice. Every transport (HTTP, IPC, in-process) resumes through this one method.
   */
  follow(since: number, listener: EventListener, onStart: (seq: number, reset: boolean) => void): () => void {
    const missed = since === 0 ? [] : this.since(since);
    if (missed === null) onStart(this.seq, true);
    else {
      onStart(since === 0 ? this.seq : since, false);
      for (const event of missed) listener(event);
    }
    return this.subscribe(listener);
  }
}
