// Fan-out of engine events with a short memory, so a client that drops its connection can ask
// for everything after the last sequence number it saw instead of refetching the world.
import type { EventMap, EventName, LanesEvent } from '../../shared/events.js';

export type EventListener = (event: LanesEvent) => void;

export class EventHub {
  private seq = 0;
  private readonly ring: LanesEvent[] = [];
  private readonly listeners = new Set<EventListener>();

  constructor(private readonly capacity = 20_000) {}

  emit<K extends EventName>(type: K, data: EventMap[K]): void {
    const event = { seq: ++this.seq, type, data } as LanesEvent;
    this.ring.push(event);
    // Trim in chunks: shifting one element per emit is O(n) on a full ring.
    if (this.ring.length > this.capacity * 1.25) this.ring.splice(0, this.ring.length - this.capacity);
    for (const listener of this.listeners) listener(event);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Events after `seq`, oldest first; `null` when some of them have already been forgotten,
   * in which case the client must reload its snapshot.
   */
  since(seq: number): LanesEvent[] | null {
    if (seq >= this.seq) return [];
    const first = this.ring[0];
    if (!first || first.seq > seq + 1) return null;
    return this.ring.slice(seq + 1 - first.seq);
  }
}
