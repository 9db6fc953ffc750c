// The machine as status shows it: the cores, what the ceiling is and why, the memory Lanes may
// use, the power source, whether a person is at the keyboard, and the GPUs where they are read. Pure: a sample's facts and the
// limits judged from them in; the contract's MachineStatus out.
import type { MachineStatus } from '../../../shared/model.js';
import type { MachineFacts } from './facts.js';
import type { MachineLimits } from './limits.js';
import { gpuStatus } from './gpu-book.js';

export function machineStatus(facts: MachineFacts, limits: MachineLimits): MachineStatus {
  const core = limits.limits.find((l) => l.reason === 'cores' || l.reason === 'container');
  return {
    cores: facts.cpu.cores,
    coreCeiling: core?.workers ?? limits.ceiling,
    memoryBytes: Math.round(limits.memory.bytes),
    power: facts.power.source,
    personActive: limits.presence === 'unknown' ? null : limits.presence === 'active',
    ceiling: limits.ceiling,
    limitedBy: limits.limitedBy,
    text: limits.text,
    ...gpuStatus(facts),
  };
}
