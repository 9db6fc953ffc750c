// What the window remembers about the person between visits, in localStorage: whether they have
// read the first-run help, and whether they folded the lanes away. Nothing about the engine.
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export interface PrefsState {
  /** The help was dismissed once: it no longer opens by itself. */
  helpDismissed: boolean;
  /** The help is on screen now (not remembered: it follows helpDismissed at the next start). */
  helpOpen: boolean;
  lanesCollapsed: boolean;
}

export const usePrefs = create<PrefsState>()(
  persist((): PrefsState => ({ helpDismissed: false, helpOpen: true, lanesCollapsed: false }), {
    name: 'lanes.window',
    version: 1,
    partialize: ({ helpDismissed, lanesCollapsed }) => ({ helpDismissed, lanesCollapsed }),
    // A returning person starts with the help closed; a new one with it open.
    merge: (saved, current) => {
      const s = (saved ?? {}) as Partial<PrefsState>;
      const helpDismissed = s.helpDismissed === true;
      return { ...current, helpDismissed, helpOpen: !helpDismissed, lanesCollapsed: s.lanesCollapsed === true };
    },
  }),
);

export function dismissHelp(): void {
  usePrefs.setState({ helpDismissed: true, helpOpen: false });
}

export function toggleHelp(): void {
  usePrefs.setState((s) => (s.helpOpen ? { helpOpen: false, helpDismissed: true } : { helpOpen: true }));
}

export function toggleLanes(): void {
  usePrefs.setState((s) => ({ lanesCollapsed: !s.lanesCollapsed }));
}
