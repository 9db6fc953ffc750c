// Someone at the machine: away after minutes without input, back only after input spread over
// half a minute, away at once when the screen locks. Sequences of readings, as the watcher takes them.
import { describe, expect, it } from 'vitest';
import { nextPresence, type PersonState, type Presence } from '../../../electron/engine/machine/person.js';

/** Readings [seconds since start, idle seconds, locked?] in order; the presence after each. */
function walk(readings: [number, number, boolean?][]): Presence[] {
  let state: PersonState | null = null;
  return readings.map(([t, idleSeconds, locked]) => {
    const r = nextPresence(state, { idleSeconds, locked: locked ?? false }, 1_000_000 + t * 1000);
    state = r.state;
    return r.presence;
  });
}

describe('whether someone is at the machine', () => {
  it('nobody can tell without a desktop', () => {
    expect(nextPresence(null, null, 0)).toEqual({ presence: 'unknown', state: null });
  });

  it('the first reading is believed as it is', () => {
    expect(walk([[0, 5]])).toEqual(['active']);
    expect(walk([[0, 600]])).toEqual(['away']);
  });

  it('leaves after three minutes without input, not before', () => {
    expect(walk([[0, 0], [60, 60], [120, 120], [175, 175], [180, 180]])).toEqual(['active', 'active', 'active', 'active', 'away']);
  });

  it('a mouse twitch while away changes nothing', () => {
    // Away; one input at t=300; the readings after it see the idle time grow again.
    expect(walk([[0, 600], [300, 0], [315, 15], [330, 30], [345, 45], [360, 60], [600, 300]])).toEqual(Array(7).fill('away'));
  });

  it('input over half a minute brings the person back', () => {
    expect(walk([[0, 600], [300, 0], [315, 2], [330, 2], [335, 1]])).toEqual(['away', 'away', 'away', 'away', 'active']);
  });

  it('a pause of a minute starts the count again', () => {
    expect(walk([[0, 600], [300, 0], [315, 2], [380, 61], [390, 0], [405, 1], [420, 0]])).toEqual(['away', 'away', 'away', 'away', 'away', 'away', 'active']);
  });

  it('a locked screen is away at once, and unlocking is not yet back', () => {
    expect(walk([[0, 0], [10, 0, true], [20, 0], [35, 0], [55, 0]])).toEqual(['active', 'away', 'away', 'away', 'active']);
  });

  it('the same reading twice is one reading', () => {
    const first = nextPresence(null, { idleSeconds: 600, locked: false }, 1_000_000);
    const again = nextPresence(first.state, { idleSeconds: 0, locked: false }, 1_300_000);
    expect(nextPresence(again.state, { idleSeconds: 0, locked: false }, 1_300_000)).toEqual(again);
  });
});
