// Numbers, times and states in words, one place, so every view says them the same way.
import type { JobState, LaneMood } from '../shared/model.js';
import { clock, clockMinute } from '../shared/format.js';

const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const rates = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export function formatCount(n: number): string {
  return counts.format(n);
}

export function formatRate(perMin: number): string {
  if (perMin === 0) return '0';
  return perMin < 10 ? rates.format(perMin) : counts.format(perMin);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}


/** A span of time for a person: 850 ms, 4.2 s, 3 min 4 s, 2 h 5 min. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 10_000) return `${rates.format(ms / 1_000)} s`;
  const s = Math.round(ms / 1_000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
}

/**
 * A moment, one way everywhere in the window and as the CLI writes it: 24-hour clock time today,
 * with the date (2026-12-01 23:10:04) on any other day, so a job queued yesterday never reads as
 * if it were today.
 */
export function formatClock(at: number | null, now = Date.now()): string {
  return at === null ? '—' : clock(at, now);
}

/** The same as formatClock: one time format in the window. */
export const formatDateTime = formatClock;

/** To the minute, for a moment a person plans by ("scheduled for 02:00"), as the CLI writes it. */
export const formatMinute = clockMinute;

export const MOOD_WORDS: Record<LaneMood, { word: string; hint: string }> = {
  off: { word: 'Off', hint: 'The cap is 0: this lane runs nothing until you raise it.' },
  paused: { word: 'Paused', hint: 'Paused (all work, or this lane by itself): running jobs finish, nothing new starts until it is resumed. The cap is unchanged.' },
  idle: { word: 'Idle', hint: 'Nothing waiting. Idle workers are given back one per tick.' },
  working: { word: 'Working', hint: 'Running jobs and keeping up.' },
  saturated: { word: 'Saturated', hint: 'Every worker the cap allows is busy and work is waiting.' },
  sharing: { word: 'Sharing the machine', hint: 'Work is waiting for room: other lanes are using the machine’s workers.' },
  held: { word: 'Held back', hint: 'Work is waiting and the machine (its memory, the battery, you at the computer) allows this lane fewer workers than its cap. The note says why.' },
};

export const STATE_WORDS: Record<JobState, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

// The ledger's reasons, one list for the window and the CLI (shared/ledger-words.ts).
export { ledgerLane, REASON_WORDS, reasonWords } from '../shared/ledger-words.js';
