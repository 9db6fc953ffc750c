// The one line the window says after a person asked for something that has no row of its own to
// show it on: "Cancelled 12 jobs", "Lane render removed", or the engine's refusal in its words.
// Kept apart so a notice re-renders that line only.
import { create } from 'zustand';

export interface Notice {
  text: string;
  tone: 'info' | 'bad';
  /** Bumped per notice, so the same words said twice still show as new. */
  id: number;
}

export const useNotice = create<{ notice: Notice | null }>(() => ({ notice: null }));

let next = 0;

export function say(text: string, tone: Notice['tone'] = 'info'): void {
  useNotice.setState({ notice: { text, tone, id: ++next } });
}

export function dismissNotice(): void {
  useNotice.setState({ notice: null });
}
