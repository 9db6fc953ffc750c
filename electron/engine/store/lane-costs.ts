// The measured memory cost of each lane's workers, kept in the lanes table apart from the lane
// rows the rest of the engine caches: it changes every few seconds while workers run, a lane's
// settings almost never. Read back as untrusted JSON (lane-cost.ts checks it). One column each:
// `worker_cost` (memory) and `gpu_cost` (an ml lane's GPU memory, which may be measured as 0).
import type { Db } from './db.js';
import { BYTES_MIN, parseLaneCost, type LaneCost } from '../machine/lane-cost.js';

const COLUMNS = { memory: { column: 'worker_cost', min: BYTES_MIN }, gpu: { column: 'gpu_cost', min: 0 } } as const;

export class LaneCosts {
  private readonly read;
  private readonly write;

  private readonly min: number;

  constructor(db: Db, which: keyof typeof COLUMNS = 'memory') {
    const { column, min } = COLUMNS[which];
    this.min = min;
    this.read = db.prepare<[], { name: string; cost: string | null }>(`SELECT name, ${column} AS cost FROM lanes WHERE ${column} IS NOT NULL`);
    this.write = db.prepare<[string, string]>(`UPDATE lanes SET ${column} = ? WHERE name = ?`);
  }

  load(): Map<string, LaneCost> {
    const costs = new Map<string, LaneCost>();
    for (const row of this.read.all()) {
      let value: unknown = null;
      try {
        value = JSON.parse(row.cost ?? 'null');
      } catch {
        // A damaged figure is measured again; it never stops the engine.
      }
      const cost = parseLaneCost(value, this.min);
      if (cost) costs.set(row.name, cost);
    }
    return costs;
  }

  save(lane: string, cost: LaneCost): void {
    this.write.run(JSON.stringify(cost), lane);
  }
}
