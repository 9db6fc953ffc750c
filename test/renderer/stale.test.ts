// A window whose engine is gone: which states count as stale, and its clocks stop at the moment
// it lost touch.
import { afterEach, describe, expect, it } from 'vitest';
import { isStale, useConnection } from '../../renderer/stores/connection.js';
import { frozenOr } from '../../renderer/stores/clock.js';

const LOST = 1_800_000_000_000;

describe('a stale window', () => {
  afterEach(() => useConnection.setState({ loaded: false, link: 'connecting', lostAt: null }));

  it.each([
    ['connected', { loaded: true, link: 'connected', lostAt: null }, false],
    ['still loading', { loaded: false, link: 'connecting', lostAt: null }, false],
    ['lost touch, trying again', { loaded: true, link: 'reconnecting', lostAt: LOST }, true],
    ['the engine restarted (new key)', { loaded: true, link: 'gone', lostAt: LOST }, true],
    ['its key refused', { loaded: true, link: 'unauthorized', lostAt: null }, true],
  ] as const)('%s', (_name, s, stale) => {
    expect(isStale(s)).toBe(stale);
  });

  it('its clocks stop where it lost touch, and run again once it is back', () => {
    useConnection.setState({ loaded: true, link: 'reconnecting', lostAt: LOST });
    expect(frozenOr(LOST + 60_000)).toBe(LOST);
    useConnection.setState({ link: 'connected', lostAt: null });
    expect(frozenOr(LOST + 60_000)).toBe(LOST + 60_000);
  });
});

describe('one time format', () => {
  it('clock time within a day, date and clock time beyond, wherever a moment is shown', async () => {
    const { formatClock, formatDateTime } = await import('../../renderer/format.js');
    const now = Date.UTC(2030, 0, 10, 12, 0, 0);
    expect(formatClock(now - 3_600_000, now)).not.toMatch(/2030/);
    expect(formatClock(now - 2 * 86_400_000, now)).toMatch(/2030/);
    expect(formatDateTime).toBe(formatClock);
    // 24-hour, as the CLI writes it, whatever the locale's habit.
    const late = new Date(2030, 0, 10, 23, 5, 9).getTime();
    expect(formatClock(late, late + 60_000)).toBe('23:05:09');
    expect(formatClock(late, late + 2 * 86_400_000)).toBe('2030-01-10 23:05:09');
  });
});
