// Desktop notifications: what notice-feed.ts decides to say (a nudge's first appearance, a batch
// that finished, jobs that failed), each opening the window when clicked, where the person can see
// why; and a plain one when something the person did from the tray failed, since no window may be
// open to say so.
import { Notification } from 'electron';
import { noticeFeed } from './notice-feed.js';
import type { ShellStore } from './shell-state.js';

export function notify(title: string, body: string): void {
  if (Notification.isSupported()) new Notification({ title, body }).show();
}

export function setupNotifications(options: { store: ShellStore; icon?: string; onClick: () => void }): () => void {
  // Notifications must stay referenced until shown and clicked, or the click handler is collected.
  const live = new Set<Notification>();
  return noticeFeed({
    store: options.store,
    show(notice) {
      if (!Notification.isSupported()) return;
      const notification = new Notification({
        title: notice.title,
        body: notice.body,
        // A failure is worth a sound where the OS makes one; a nudge or a finished batch is not.
        silent: notice.kind !== 'failed',
        ...(options.icon ? { icon: options.icon } : {}),
      });
      live.add(notification);
      notification.on('click', () => {
        live.delete(notification);
        options.onClick();
      });
      notification.on('close', () => live.delete(notification));
      notification.show();
    },
  });
}
