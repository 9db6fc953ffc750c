// Whether the window can hear the engine, and which engine it is. Kept apart from the data
// stores so a flapping connection re-renders the header only.
import { create } from 'zustand';
import type { LinkState } from '../../shared/client/client';

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
}

export const useConnection = create<ConnectionState>(() => ({
  link: 'connecting',
  loaded: false,
  problem: null,
  engine: null,
  lostAt: null,
  keyless: false,
}));
