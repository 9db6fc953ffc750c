// The scale-event ledger: why the fleet changed. Bounded: the oldest rows go once it is full.
import type { ScaleEvent } from '../../../shared/model.js';
import type { Db } from './db.js';

export const LEDGER_LIMIT = 10_000;

/** A row to write: the event before the store numbers it. */
export type LedgerRow = Omit<ScaleEvent, 'id'>;

export class Ledger {
  private readonly insert;
  private readonly recordMany;
  private sincePrune = 0;

  constructor(
    private readonly db: Db,
    private readonly limit = LEDGER_LIMIT,
  ) {
    this.insert = db.prepare<[number, string, number, number, string, string], ScaleEvent>(
      'INSERT INTO scale_events (at, lane, "from", "to", reason, detail) VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
    );
    this.recordMany = db.transaction((rows: readonly LedgerRow[]) => rows.map((r) => this.record(r)));
  }

  private record({ at, lane, from, to, reason, detail }: LedgerRow): ScaleEvent {
    const event = this.insert.get(at, lane, from, to, reason, detail)!;
    // Pruning on every insert would be a DELETE per worker start; every 10% of the limit is enough.
    if (++this.sincePrune >= Math.max(1, this.limit / 10)) {
      this.sincePrune = 0;
      this.db.prepare('DELETE FROM scale_events WHERE id <= ?').run(event.id - this.limit);
    }
    return event;
  }

  /** Rows in one transaction. */
  recordAll(rows: readonly LedgerRow[]): ScaleEvent[] {
    return this.recordMany(rows);
  }

  list(filter: { lane?: string | undefined; afterId?: number | undefined; limit: number }): ScaleEvent[] {
    const where = ['id > ?'];
    const args: (string | number)[] = [filter.afterId ?? 0];
    if (filter.lane) {
      where.push('lane = ?');
      args.push(filter.lane);
    }
    // The newest `limit` events, returned oldest first so they read as a timeline.
    const rows = this.db
      .prepare(`SELECT * FROM scale_events WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`)
      .all(...args, filter.limit) as ScaleEvent[];
    return rows.reverse();
  }
}
