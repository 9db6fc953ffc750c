// What the tray shows and when the OS is handed it, decided without Electron (tray.ts only adapts
// Electron's Tray to the small surface below). Every render reads the shell state and hands over
// only what changed: replacing a menu that is open closes it on some desktops, so an unchanged
// menu is left alone.
import type { ShellState } from './shell-state.js';
import type { TrayDispatch } from './tray-actions.js';
import { trayLook, type TrayIconState } from './tray-look.js';
import { toMenuTemplate, trayMenuModel, type MenuTemplateItem, type TrayItem } from './tray-menu.js';

/** The OS tray, as far as the view needs it. */
export interface TraySurface {
  setIcon(icon: TrayIconState): void;
  setToolTip(text: string): void;
  setMenu(template: MenuTemplateItem[]): void;
}

export class TrayView {
  private shownIcon: TrayIconState | null;
  private shownTooltip = '';
  private shownMenu = '';
  private template: MenuTemplateItem[] = [];

  constructor(
    private readonly options: {
      surface: TraySurface;
      state: () => ShellState;
      dispatch: TrayDispatch;
      /** The icon the tray was created with, if any. */
      shownIcon?: TrayIconState;
      /** The clock, for words like "Paused until 15:30"; Date.now unless a test says otherwise. */
      now?: () => number;
    },
  ) {
    this.shownIcon = options.shownIcon ?? null;
  }

  /** The template last handed to the OS (for the smoke test's hooks). */
  get menu(): MenuTemplateItem[] {
    return this.template;
  }

  render(): void {
    const state = this.options.state();
    const { surface } = this.options;
    const now = (this.options.now ?? Date.now)();
    const look = trayLook(state, now);
    if (look.icon !== this.shownIcon) {
      surface.setIcon(look.icon);
      this.shownIcon = look.icon;
    }
    if (look.tooltip !== this.shownTooltip) {
      surface.setToolTip(look.tooltip);
      this.shownTooltip = look.tooltip;
    }
    const model = trayMenuModel(state, now);
    const key = JSON.stringify(model);
    if (key !== this.shownMenu) {
      this.template = toMenuTemplate(model, (item) => this.click(item));
      surface.setMenu(this.template);
      this.shownMenu = key;
    }
  }

  private click(item: TrayItem): void {
    if (!item.action) return;
    // The OS moves a radio or checkbox mark as soon as it is clicked, before the action has run.
    // So after such a click the next render always hands the OS a fresh menu: on success that is
    // the engine's event showing the change; on failure nothing changes, so render now, which puts
    // the mark back where the state says it is.
    const movesMark = item.type === 'radio' || item.type === 'checkbox';
    if (movesMark) this.shownMenu = '';
    void this.options.dispatch(item.action).then((outcome) => {
      if (movesMark && outcome === 'failed') this.render();
    });
  }
}
