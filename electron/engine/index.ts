// The engine's public face: what the API, the CLI's daemon and the desktop shell may use.
export { openEngine, type Engine, type EngineOptions } from './engine.js';
export { inProcessTransport } from './in-process.js';
export { nodeLauncher, type WorkerLauncher, type WorkerProcess, type LaunchOptions } from './workers/launcher.js';
export { checkMessage, type WorkerSaid } from './workers/messages.js';
