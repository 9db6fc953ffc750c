// How the one window is made, decided without Electron (window.ts creates it): its size, and the
// settings that leave the page `window.lanes` as its only way out — sandboxed, isolated, no Node.
export interface WindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  /** Shown once it has painted, so it never flashes empty. */
  show: false;
  title: string;
  icon?: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    webSecurity: true;
    spellcheck: false;
  };
}

export function windowOptions(options: { preload: string; icon?: string; platform: NodeJS.Platform }): WindowOptions {
  return {
    width: 1180,
    height: 760,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Lanes',
    // macOS and Windows take the app's icon from the bundle; Linux needs it given.
    ...(options.icon && options.platform === 'linux' ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  };
}
