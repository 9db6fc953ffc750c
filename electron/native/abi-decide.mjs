// Which runtime better-sqlite3's compiled binary was built for, and what to do about it.
// Pure: facts in, an action out. `abi.mjs` gathers the facts (marker file, the .node file's
// size and mtime, a trial load under Node) and carries the action out. Kept apart so the table of
// cases is tested under vitest without compiling anything.

/**
 * The identity of a build target. `modules` is NODE_MODULE_VERSION, the number a native module is
 * checked against when it loads; Electron has its own (e.g. 150 for Electron 45) even when its Node
 * is the same version as the system's.
 */
export function targetIdentity(runtime, version, modules, platform, arch) {
  return { runtime, version, modules: String(modules), platform, arch };
}

/**
 * The binary's fingerprint. A marker only vouches for the exact file it was written next to: any
 * other tool that rebuilds or reinstalls better-sqlite3 (npm install, electron-builder) changes the
 * size or mtime, and then the marker no longer says anything.
 */
export function binaryStamp(stat) {
  return stat ? { size: stat.size, mtimeMs: Math.round(stat.mtimeMs) } : null;
}

function sameTarget(a, b) {
  return (
    a.runtime === b.runtime &&
    a.modules === b.modules &&
    a.platform === b.platform &&
    a.arch === b.arch &&
    // Electron builds are also tied to the version (headers differ between releases with one ABI).
    (a.runtime !== 'electron' || a.version === b.version)
  );
}

function sameStamp(a, b) {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * Does a load error mean the compiled binary is wrong (built for another runtime, truncated,
 * missing), so rebuilding fixes it? Errors that name the `.node` file itself count: the dynamic
 * loader reports those, not JavaScript.
 */
export function isAbiMismatch(message) {
  return /NODE_MODULE_VERSION|did not self-register|undefined symbol|invalid ELF|wrong ELF class|file too short|not a valid Win32|incompatible architecture|Could not locate the bindings file|\.node:/i.test(
    String(message),
  );
}

/**
 * @param facts.target   'node' | 'electron'
 * @param facts.want     targetIdentity of the runtime we are switching to
 * @param facts.marker   what the marker file says ({...identity, binary: stamp}) or null
 * @param facts.binary   binaryStamp of the .node file, or null when it does not exist
 * @param facts.probe    only for 'node': { ok: true } or { ok: false, message }
 * @returns { action: 'none' | 'mark' | 'rebuild' | 'fail', reason }
 *   'mark' means the binary is right but the marker is missing or stale: write it, build nothing.
 */
export function decideAbi({ target, want, marker, binary, probe }) {
  if (!binary) return { action: 'rebuild', reason: 'better-sqlite3 has no compiled binary' };
  const markerVouches = !!marker && sameStamp(marker.binary, binary) && sameTarget(marker, want);

  if (target === 'node') {
    // Node can load the module here and now, which beats any record of what was built.
    if (!probe) return { action: 'fail', reason: 'no trial load result for node' };
    if (probe.ok) {
      return markerVouches
        ? { action: 'none', reason: `built for node ABI ${want.modules}` }
        : { action: 'mark', reason: 'loads under node; recording that' };
    }
    if (isAbiMismatch(probe.message)) {
      return { action: 'rebuild', reason: `it does not load under node: ${firstLine(probe.message)}` };
    }
    return { action: 'fail', reason: `better-sqlite3 does not load: ${firstLine(probe.message)}` };
  }

  if (target === 'electron') {
    if (markerVouches) return { action: 'none', reason: `built for electron ${want.version}` };
    if (!marker) return { action: 'rebuild', reason: 'no record of the current build; assuming node' };
    if (!sameStamp(marker.binary, binary)) return { action: 'rebuild', reason: 'binary changed since it was recorded' };
    return { action: 'rebuild', reason: `built for ${marker.runtime} ABI ${marker.modules}` };
  }

  return { action: 'fail', reason: `unknown target "${target}" (use node or electron)` };
}

function firstLine(message) {
  return String(message).split('\n')[0];
}

/**
 * Node's own headers beside its executable (`<prefix>/include/node`), when they are this Node's:
 * node-gyp then builds offline instead of downloading a headers tarball.
 * `readVersionHeader` returns node_version.h's text or null.
 */
export function localNodeDir(execPath, nodeVersion, readVersionHeader, path) {
  const prefix = path.resolve(path.dirname(execPath), '..');
  const header = readVersionHeader(path.join(prefix, 'include', 'node', 'node_version.h'));
  if (!header) return null;
  const part = (name) => header.match(new RegExp(`#define ${name} (\\d+)`))?.[1];
  const found = `${part('NODE_MAJOR_VERSION')}.${part('NODE_MINOR_VERSION')}.${part('NODE_PATCH_VERSION')}`;
  return found === nodeVersion ? prefix : null;
}
