// The measured memory cost of each lane's workers, kept in the lanes table apart from the lane
// rows the rest of the engine caches: it changes every few seconds while workers run, a lane's
// settings almost never. Read back as untrusted JSON (lane-cost.ts checks it).
import type { Db } from './db.js';
import { parseLaneCost, type LaneCost } from '../machine/lane-cost.js';

export class LaneCosts {
  private readonly read;
  private readonly write;

  constructor(db: Db) {
    this.read = db.prepare<[], { name: string; worker_cost: string | null }>('SELECT name, worker_cost FROM lanes WHERE worker_cost IS NOT NULL');
    this.write = db.prepare<[string, string]>('UPDATE lanes SET worker_cost = ? WHERE name = ?');
  }

  load(): Map<string, LaneCost> {
    const costs = new Map<string, LaneCost>();
    for (const row of this.read.all()) {
      let value: unknown = null;
      try {
        value = JSON.parse(row.worker_cost ?? 'null');
      } catch {
        // A damaged figure is measured again; it never stops the engine.
      }
      const cost = parseLaneCost(value);
      if (cost) costs.set(row.name, cost);
    }
    return costs;
  }

  save(lane: string, cost: LaneCost): void {
    this.write.run(JSON.stringify(cost), lane);
  }
}
