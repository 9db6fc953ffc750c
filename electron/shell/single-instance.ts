// One Lanes per person: the engine holds its data directory's lock, so a second app could only
// fail. A second launch (clicking the icon again, a login start after a manual one) instead asks
// the first to show its window, and exits.
import { app } from 'electron';

/** False when another instance already runs; the caller should then quit at once. */
export function claimSingleInstance(onSecondLaunch: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => onSecondLaunch());
  return true;
}
