// Just enough of Electron's main-process API, recorded, to run the shell's real wiring (main.ts)
// under Node: the engine, workers, IPC, tray and quit all real, only Electron's objects faked.
// Utility processes become forked Node children (the worker runtime speaks to either).
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface TemplateItem {
  id?: string;
  label?: string;
  checked?: boolean;
  enabled?: boolean;
  click?: () => void;
  submenu?: TemplateItem[];
}
type Template = TemplateItem[];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const recorded = {
  paths: new Map<string, string>(),
  exitCode: null as number | null,
  trays: [] as FakeTray[],
  windows: [] as FakeBrowserWindow[],
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  privilegedSchemes: [] as unknown[],
  invokeHandlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  ipcListeners: new Map<string, (event: unknown, ...args: unknown[]) => void>(),
  notifications: [] as { title?: string; body?: string }[],
  utility: [] as { entry: string; args: string[]; serviceName?: string }[],
};

class FakeApp extends EventEmitter {
  isPackaged = false;
  setPath(name: string, value: string) {
    recorded.paths.set(name, value);
  }
  getPath(name: string) {
    return recorded.paths.get(name) ?? path.join(root, '.never', name);
  }
  getAppPath() {
    return root;
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return Promise.resolve();
  }
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) recorded.exitCode = 0;
  }
  exit(code = 0) {
    recorded.exitCode = code;
  }
  getLoginItemSettings() {
    return { openAtLogin: false, wasOpenedAtLogin: false };
  }
  setLoginItemSettings() {}
}
export const app = new FakeApp();

export class FakeTray extends EventEmitter {
  image: unknown;
  tooltip = '';
  template: Template = [];
  destroyed = false;
  constructor(image: unknown) {
    super();
    this.image = image;
    recorded.trays.push(this);
  }
  setImage(image: unknown) {
    this.image = image;
  }
  setToolTip(text: string) {
    this.tooltip = text;
  }
  setContextMenu(menu: { template: Template }) {
    this.template = menu.template;
  }
  destroy() {
    this.destroyed = true;
  }
}
export { FakeTray as Tray };

export const Menu = { buildFromTemplate: (template: Template) => ({ template }) };
function iconNamed(buffer: Buffer): string {
  const dir = path.join(root, 'electron', 'shell', 'icons');
  const match = fs.readdirSync(dir).find((name) => name.endsWith('.png') && fs.readFileSync(path.join(dir, name)).equals(buffer));
  return match ? path.join(dir, match) : 'buffer';
}

export const nativeImage = {
  createFromPath: (file: string) => ({ file, setTemplateImage() {} }),
  // Tests read which icon is shown from `file`; bytes carry no name, so find the icon they are.
  createFromBuffer: (buffer: Buffer) => ({ file: iconNamed(buffer), setTemplateImage() {} }),
  createEmpty: () => ({ file: null }),
};

export class FakeBrowserWindow extends EventEmitter {
  url = '';
  visible = false;
  webContents = new EventEmitter();
  constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
    super();
    recorded.windows.push(this);
    queueMicrotask(() => this.emit('ready-to-show'));
  }
  loadURL(url: string) {
    this.url = url;
    return Promise.resolve();
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
  /** What the OS close button does: returns whether the window really closed. */
  tryClose(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    return !prevented;
  }
}
export { FakeBrowserWindow as BrowserWindow };

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown[]) => recorded.privilegedSchemes.push(...schemes),
  handle: (scheme: string, handler: (request: Request) => Promise<Response>) => recorded.protocolHandlers.set(scheme, handler),
};
export const session = { defaultSession: { setPermissionRequestHandler() {}, setPermissionCheckHandler() {} } };
export const shell = { openExternal: () => Promise.resolve() };
export const dialog = { showErrorBox: (title: string, content: string) => recorded.notifications.push({ title, body: content }) };

export const ipcMain = {
  handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) => recorded.invokeHandlers.set(channel, fn),
  removeHandler: (channel: string) => recorded.invokeHandlers.delete(channel),
  on: (channel: string, fn: (event: unknown, ...args: unknown[]) => void) => recorded.ipcListeners.set(channel, fn),
  off: (channel: string) => recorded.ipcListeners.delete(channel),
};

export const powerMonitor = new EventEmitter();

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(readonly options: { title?: string; body?: string }) {
    super();
  }
  show() {
    recorded.notifications.push(this.options);
  }
}

class FakeUtilityProcess extends EventEmitter {
  pid: number | undefined;
  constructor(private readonly child: ChildProcess) {
    super();
    child.once('spawn', () => {
      this.pid = child.pid;
      this.emit('spawn');
    });
    child.on('message', (message) => this.emit('message', message));
    child.once('exit', (code) => this.emit('exit', code ?? 1));
  }
  postMessage(message: unknown) {
    if (this.child.connected) this.child.send(message as object);
  }
  kill() {
    return this.child.kill();
  }
}

export const utilityProcess = {
  fork(entry: string, args: string[], options: { env?: Record<string, string>; serviceName?: string }) {
    recorded.utility.push({ entry, args, serviceName: options.serviceName });
    return new FakeUtilityProcess(fork(entry, args, { env: options.env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  },
};

export default { app, Tray: FakeTray, Menu, nativeImage, BrowserWindow: FakeBrowserWindow, protocol, session, shell, dialog, ipcMain, powerMonitor, Notification, utilityProcess };
