// Job ids, and the rule every one of them keeps: an id is never handed out twice in a data
// directory's life, whatever was cleaned, trimmed or restarted since (a script, a notification or
// a window that holds an id must never be pointed at another job).
//
// Local ids are SQLite's AUTOINCREMENT (migration 0014): it keeps the highest id it ever gave in
// sqlite_sequence and counts on from there. What only a log file still names (the files of a
// job whose row went, or a data directory whose database was replaced) is raised above at every
// open, from the log folders' names (retention/log-files.ts): a migration cannot see files.
//
// Shared lanes' ids. Every id in the contract is an integer, and a job of a shared lane must
// have the same id on every engine that joined the lane. BullMQ already numbers a queue's jobs
// (one counter in Redis, incremented as each job is added, so engines never collide); a shared
// job's id is that number placed in a range of its own:
//
//   id = slot × 10¹² + BullMQ's id        slot ∈ [1000, 9000)
//
// so shared ids run from 10¹⁵ up (local ids, counted from 1 by SQLite, never get there), a lane
// holds up to 10¹² jobs, and the largest id stays below 2⁵³ (a safe integer in JSON and in every
// client). The slot comes from the lane's name alone, so every engine that joins "render" agrees
// on it without asking anyone; two lanes of one engine whose names land on the same slot are
// refused when the second is added (1 pair in 8,000), with words that say to pick another name.
// In decimal the BullMQ id stays readable at the end: 4821000000000017 is job 17 of its lane.

import type { Db } from './db.js';

export const SHARED_ID_MIN = 1e15;
const SLOT_SPAN = 1e12;
const SLOT_MIN = 1000;
const SLOTS = 8000;

/** FNV-1a over the name's UTF-16 units: stable across engines, versions and platforms. */
export function slotOf(lane: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < lane.length; i++) {
    h ^= lane.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return SLOT_MIN + (h % SLOTS);
}

export const isSharedId = (id: number): boolean => id >= SHARED_ID_MIN;

export const slotOfId = (id: number): number => Math.floor(id / SLOT_SPAN);

/** Lanes' id for BullMQ's id `bullId` (a decimal string from Redis: checked, since Redis is a boundary); null if it is not one. */
export function sharedId(slot: number, bullId: string): number | null {
  if (!/^[1-9]\d{0,11}$/.test(bullId)) return null;
  return slot * SLOT_SPAN + Number(bullId);
}

/** BullMQ's id within the lane for a shared id. */
export const bullIdOf = (id: number): string => String(id % SLOT_SPAN);

/** The highest id each shared lane's slot has had here, by slot (its jobs' compact records). */
export function sharedIdsKnown(db: Db): Map<number, number> {
  const rows = db.prepare<[], { slot: number; top: number }>(`SELECT id / ${SLOT_SPAN} AS slot, max(id) AS top FROM cleaned_jobs WHERE id >= ${SHARED_ID_MIN} GROUP BY id / ${SLOT_SPAN}`).all();
  return new Map(rows.map((r) => [r.slot, r.top]));
}

/** Within a shared lane's slot, the part of `id` BullMQ's counter holds (0 for an id of another slot). */
export const bullNumberIn = (slot: number, id: number): number => (slotOfId(id) === slot ? id % SLOT_SPAN : 0);

/**
 * The next local id is above `id` and above every compact record's: never below what the store
 * already keeps (SQLite's own counter only grows). Run at open, before any job is queued.
 */
export function keepLocalIdsAbove(db: Db, id: number): void {
  db.transaction(() => {
    db.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT 'jobs', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'jobs')").run();
    db.prepare(`UPDATE sqlite_sequence SET seq = max(seq, ?, coalesce((SELECT max(id) FROM cleaned_jobs WHERE id < ${SHARED_ID_MIN}), 0)) WHERE name = 'jobs'`).run(Math.min(id, SHARED_ID_MIN - 1));
  })();
}
