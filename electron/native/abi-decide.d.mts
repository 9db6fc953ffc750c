// Types for abi-decide.mjs, which stays plain JavaScript because it runs before anything is built.
import type * as nodePath from 'node:path';

export type AbiRuntime = 'node' | 'electron';

export interface TargetIdentity {
  runtime: AbiRuntime;
  version: string;
  modules: string;
  platform: string;
  arch: string;
}

export interface BinaryStamp {
  size: number;
  mtimeMs: number;
}

export interface AbiMarker extends TargetIdentity {
  binary: BinaryStamp | null;
}

export type Probe = { ok: true } | { ok: false; message: string };

export interface AbiFacts {
  target: string;
  want: TargetIdentity;
  marker: AbiMarker | null;
  binary: BinaryStamp | null;
  probe?: Probe | null;
}

export interface AbiDecision {
  action: 'none' | 'mark' | 'rebuild' | 'fail';
  reason: string;
}

export function targetIdentity(
  runtime: AbiRuntime,
  version: string,
  modules: string | number,
  platform: string,
  arch: string,
): TargetIdentity;
export function binaryStamp(stat: { size: number; mtimeMs: number } | null): BinaryStamp | null;
export function isAbiMismatch(message: string): boolean;
export function decideAbi(facts: AbiFacts): AbiDecision;
export function localNodeDir(
  execPath: string,
  nodeVersion: string,
  readVersionHeader: (file: string) => string | null,
  path: Pick<typeof nodePath, 'resolve' | 'dirname' | 'join'>,
): string | null;
