// Whether someone is using the machine, from the system's idle time, with hysteresis both ways:
// leaving takes minutes without input (as BOINC's "in use" does), coming back takes input spread
// over half a minute, so a mouse twitch or a cat on the keyboard neither starts nor stops workers.
// A locked screen means away at once. Pure and idempotent: the same reading twice changes nothing.
import type { MachineFacts } from './facts.js';

export type Presence = 'active' | 'away' | 'unknown';

export interface PersonState {
  active: boolean;
  /** When the current run of input began (ms); null when the last reading broke it. */
  runFrom: number | null;
}

/** Away after this long without input. */
export const AWAY_AFTER_MS = 3 * 60_000;
/** Back once input has been seen over at least this span… */
export const ACTIVE_AFTER_MS = 30_000;
/** …with no pause this long inside it. */
const RUN_BREAK_MS = 60_000;

export function nextPresence(prev: PersonState | null, person: MachineFacts['person'], at: number): { presence: Presence; state: PersonState | null } {
  if (person === null) return { presence: 'unknown', state: null };
  const idleMs = Math.max(0, person.idleSeconds * 1000);
  const lastInput = at - idleMs;
  if (person.locked) return { presence: 'away', state: { active: false, runFrom: null } };
  // The first reading has nothing to be hysteretic about: someone who just started the app is there.
  if (prev === null) {
    const active = idleMs < AWAY_AFTER_MS;
    return { presence: active ? 'active' : 'away', state: { active, runFrom: idleMs < RUN_BREAK_MS ? lastInput : null } };
  }
  const runFrom = idleMs >= RUN_BREAK_MS ? null : (prev.runFrom ?? lastInput);
  const active = prev.active ? idleMs < AWAY_AFTER_MS : runFrom !== null && lastInput - runFrom >= ACTIVE_AFTER_MS;
  return { presence: active ? 'active' : 'away', state: { active, runFrom } };
}
