// The options an engine opens with, resolved once: each as given, else from the environment where
// one says (LANES_TICK_MS, LANES_SAMPLE_MS), else its default (defaults.ts). Every part is handed
// these, never the options, so no part keeps a fallback of its own.
import { ENGINE_DEFAULTS, type EngineDefaults } from './defaults.js';
import { defaultLog, type EngineOptions } from './engine-types.js';
import { sampleFromEnv, tickFromEnv } from './timing.js';

export interface EngineSettings extends EngineDefaults {
  log(line: string): void;
}

export function engineSettings(o: EngineOptions): EngineSettings {
  const d = ENGINE_DEFAULTS;
  return {
    ...d,
    log: o.log ?? defaultLog,
    tickMs: o.tickMs ?? tickFromEnv(),
    sampleMs: o.sampleMs ?? sampleFromEnv(o.env),
    heartbeatMs: o.heartbeatMs ?? d.heartbeatMs,
    gpuTimeoutMs: o.gpuTimeoutMs ?? d.gpuTimeoutMs,
    handBelowMs: o.handBelowMs ?? d.handBelowMs,
    cancelGraceMs: o.cancelGraceMs ?? d.cancelGraceMs,
    logCapBytes: o.logCapBytes ?? d.logCapBytes,
    logsMaxBytes: o.logsMaxBytes ?? d.logsMaxBytes,
  };
}
