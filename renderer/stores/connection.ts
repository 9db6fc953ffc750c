// Whether the window can hear the engine, and which engine it is. Kept apart from the data
// stores so a flapping connection re-renders the header only.
import { create } from 'zustand';
import type { LinkState } from '../../shared/client/client.js';

export interface ConnectionState {
  link: LinkState;
  /** Set once the first snapshot has loaded; before that the window shows a placeholder. */
  loaded: boolean;
  /** Why the last snapshot failed, in words; null when it did not. */
  problem: string | null;
  engine: { pid: number; version: string; dataDir: string; startedAt: number } | null;
  /** When the live connection dropped; null while connected. */
  lostAt: number | null;
  /** The page was opened without a key (a bookmarked or copied address, not `lanes open`). */
  keyless: boolean;
  /** Its key was kept by this tab from an earlier load (a reload), not given in the address just now. */
  keyKept: boolean;
}

/**
 * What is on screen is from before: the engine is out of reach, restarted, or refused the key.
 * The window then greys its numbers, stops its clocks and disables its controls (App.tsx).
 */
export const isStale = (s: Pick<ConnectionState, 'loaded' | 'link' | 'lostAt'>): boolean =>
  s.loaded && (s.lostAt !== null || s.link === 'gone' || s.link === 'unauthorized' || s.link === 'reconnecting');

export const useConnection = create<ConnectionState>(() => ({
  link: 'connecting',
  loaded: false,
  problem: null,
  engine: null,
  lostAt: null,
  keyless: false,
  keyKept: false,
}));
