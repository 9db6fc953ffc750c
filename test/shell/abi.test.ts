// The ABI switch's decision table: which action for which marker, binary and target.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  binaryStamp,
  decideAbi,
  isAbiMismatch,
  localNodeDir,
  targetIdentity,
  type AbiFacts,
  type AbiMarker,
} from '../../electron/native/abi-decide.mjs';

const node = targetIdentity('node', '20.20.2', 115, 'linux', 'x64');
const electron = targetIdentity('electron', '45.5.0', '150', 'linux', 'x64');
const bin = binaryStamp({ size: 2_158_144, mtimeMs: 1_795_994_510_485.4 });
const marked = (id: typeof node, binary = bin): AbiMarker => ({ ...id, binary });
const mismatch =
  'The module was compiled against a different Node.js version using NODE_MODULE_VERSION 150. ' +
  'This version of Node.js requires NODE_MODULE_VERSION 115.';

const cases: { name: string; facts: AbiFacts; action: string }[] = [
  { name: 'node: loads and marker agrees', facts: { target: 'node', want: node, marker: marked(node), binary: bin, probe: { ok: true } }, action: 'none' },
  { name: 'node: loads, no marker yet', facts: { target: 'node', want: node, marker: null, binary: bin, probe: { ok: true } }, action: 'mark' },
  { name: 'node: loads though marker says electron', facts: { target: 'node', want: node, marker: marked(electron), binary: bin, probe: { ok: true } }, action: 'mark' },
  { name: 'node: built for electron', facts: { target: 'node', want: node, marker: marked(electron), binary: bin, probe: { ok: false, message: mismatch } }, action: 'rebuild' },
  { name: 'node: self-heal without a marker', facts: { target: 'node', want: node, marker: null, binary: bin, probe: { ok: false, message: mismatch } }, action: 'rebuild' },
  { name: 'node: no binary at all', facts: { target: 'node', want: node, marker: null, binary: null, probe: { ok: false, message: 'x' } }, action: 'rebuild' },
  { name: 'node: module itself missing', facts: { target: 'node', want: node, marker: null, binary: bin, probe: { ok: false, message: "Cannot find module 'bindings'" } }, action: 'fail' },
  { name: 'electron: marker agrees', facts: { target: 'electron', want: electron, marker: marked(electron), binary: bin }, action: 'none' },
  { name: 'electron: built for node', facts: { target: 'electron', want: electron, marker: marked(node), binary: bin }, action: 'rebuild' },
  { name: 'electron: no marker', facts: { target: 'electron', want: electron, marker: null, binary: bin }, action: 'rebuild' },
  { name: 'electron: binary replaced since marked', facts: { target: 'electron', want: electron, marker: marked(electron, { size: 1, mtimeMs: 2 }), binary: bin }, action: 'rebuild' },
  { name: 'electron: another electron version', facts: { target: 'electron', want: electron, marker: marked({ ...electron, version: '44.0.0' }), binary: bin }, action: 'rebuild' },
  { name: 'electron: other arch', facts: { target: 'electron', want: electron, marker: marked({ ...electron, arch: 'arm64' }), binary: bin }, action: 'rebuild' },
  { name: 'unknown target', facts: { target: 'deno', want: node, marker: null, binary: bin }, action: 'fail' },
];

describe('decideAbi', () => {
  it.each(cases)('$name → $action', ({ facts, action }) => {
    const decision = decideAbi(facts);
    expect(decision.action).toBe(action);
    expect(decision.reason.length).toBeGreaterThan(0);
  });

  it('a node version change within one ABI does not rebuild', () => {
    const decision = decideAbi({ target: 'node', want: { ...node, version: '20.21.0' }, marker: marked(node), binary: bin, probe: { ok: true } });
    expect(decision.action).toBe('none');
  });
});

describe('isAbiMismatch', () => {
  it.each([
    [mismatch, true],
    ['Module did not self-register', true],
    ['/x/better_sqlite3.node: invalid ELF header', true],
    ['/x/better_sqlite3.node: file too short', true],
    ["Cannot find module 'bindings'", false],
    ['SQLITE_CANTOPEN', false],
  ])('%s → %s', (message, expected) => {
    expect(isAbiMismatch(message)).toBe(expected);
  });
});

describe('localNodeDir', () => {
  const header = '#define NODE_MAJOR_VERSION 20\n#define NODE_MINOR_VERSION 20\n#define NODE_PATCH_VERSION 2\n';
  it('uses the headers installed with this node', () => {
    const read = (file: string) => (file === path.join('/usr', 'include', 'node', 'node_version.h') ? header : null);
    expect(localNodeDir('/usr/bin/node', '20.20.2', read, path)).toBe(path.resolve('/usr'));
  });
  it('ignores headers of another node version, or none', () => {
    expect(localNodeDir('/usr/bin/node', '20.19.0', () => header, path)).toBeNull();
    expect(localNodeDir('/usr/bin/node', '20.20.2', () => null, path)).toBeNull();
  });
});
