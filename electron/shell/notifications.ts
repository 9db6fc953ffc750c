// Desktop notifications: the first time a lane's nudge appears (see nudge-notice.ts for "first"),
// clicking it opens the window, where the person can see why before raising the cap; and a plain
// one when something the person did from the tray failed, since no window may be open to say so.
import { Notification } from 'electron';
import { emptyNoticeMemory, nudgeNotices, type NoticeMemory } from './nudge-notice.js';
import type { ShellStore } from './shell-state.js';

export function notify(title: string, body: string): void {
  if (Notification.isSupported()) new Notification({ title, body }).show();
}

export function setupNudgeNotifications(options: { store: ShellStore; icon?: string; onClick: () => void }): () => void {
  let memory: NoticeMemory = emptyNoticeMemory;
  let lastStatus: unknown = null;
  // Notifications must stay referenced until shown and clicked, or the click handler is collected.
  const live = new Set<Notification>();

  return options.store.subscribe((state) => {
    if (!state.status || state.status === lastStatus || state.stopping) return;
    lastStatus = state.status;
    const next = nudgeNotices(memory, state.status.lanes, Date.now());
    memory = next.memory;
    if (!Notification.isSupported()) return;
    for (const notice of next.notices) {
      const notification = new Notification({
        title: notice.title,
        body: notice.body,
        silent: true,
        ...(options.icon ? { icon: options.icon } : {}),
      });
      live.add(notification);
      notification.on('click', () => {
        live.delete(notification);
        options.onClick();
      });
      notification.on('close', () => live.delete(notification));
      notification.show();
    }
  });
}
