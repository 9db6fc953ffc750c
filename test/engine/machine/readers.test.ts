// Reading the machine from files as Linux lays them out: cgroup v2 (and v1 on hybrid hosts) limits
// found from /proc/self/cgroup and mountinfo, walked up to the tightest, and /proc/meminfo.
// Each fixture under test/fixtures/machine/ is a root with the few files a real machine has.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { levels, parseCpuMax, parseMemoryMax, parseMountinfo, parseProcCgroup, readCgroupCpuMs, readCgroupLimits } from '../../../electron/engine/machine/cgroup.js';
import { parseMeminfo } from '../../../electron/engine/machine/meminfo.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'machine');
const MiB = 2 ** 20;

describe('cgroup v2 files', () => {
  it.each([
    ['200000 100000\n', 2],
    ['150000 100000', 1.5],
    ['50000 100000', 0.5],
    ['max 100000\n', null],
    ['max', null],
    ['100000', 1],
    ['garbage', null],
    ['0 100000', null],
  ])('cpu.max %j is %j CPUs', (text, cpus) => {
    expect(parseCpuMax(text)).toBe(cpus);
  });

  it.each([
    ['max\n', null],
    ['2147483648\n', 2147483648],
    ['9223372036854771712', null],
    ['', null],
    ['-1', null],
  ])('memory.max %j is %j bytes', (text, bytes) => {
    expect(parseMemoryMax(text)).toBe(bytes);
  });

  it('finds the v2 path and each v1 controller in /proc/self/cgroup', () => {
    const parsed = parseProcCgroup('12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/x\n0::/docker/abc\n');
    expect(parsed.v2).toBe('/docker/abc');
    expect(parsed.v1.get('cpu')).toBe('/docker/abc');
    expect(parsed.v1.get('cpuacct')).toBe('/docker/abc');
    expect(parsed.v1.get('memory')).toBe('/docker/abc');
  });

  it('finds cgroup2 wherever mountinfo says it is, escaped spaces and all', () => {
    const m = parseMountinfo('41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n50 31 0:40 / /mnt/with\\040space rw - ext4 /dev/x rw\n');
    expect(m.v2).toEqual({ at: '/sys/fs/cgroup/unified', root: '/' });
  });

  it('walks from the own group up to the mount, and no further', () => {
    expect(levels({ at: '/sys/fs/cgroup', root: '/' }, '/a/b')).toEqual(['/sys/fs/cgroup/a/b', '/sys/fs/cgroup/a', '/sys/fs/cgroup']);
    expect(levels({ at: '/sys/fs/cgroup', root: '/docker/abc' }, '/docker/abc')).toEqual(['/sys/fs/cgroup']);
    // A path outside what the mount shows: only the mount is ours.
    expect(levels({ at: '/sys/fs/cgroup', root: '/docker/abc' }, '/other')).toEqual(['/sys/fs/cgroup']);
  });
});

describe('the limits on this process, from fixture machines', () => {
  it('a container limited to 2 CPUs and 2 GiB, its cache not counted as used', () => {
    const l = readCgroupLimits(join(fixtures, 'container-2cpu'));
    expect(l.cpus).toBe(2);
    expect(l.memoryMax).toBe(2048 * MiB);
    expect(l.memoryFree).toBe((2048 - (600 - 100)) * MiB);
    expect(readCgroupCpuMs(l.cpuUsage!)).toBe(5000);
  });

  it('a systemd host: the tightest limits up the tree, each from its own level', () => {
    const l = readCgroupLimits(join(fixtures, 'systemd-nested'));
    expect(l.cpus).toBe(1.5);
    expect(l.memoryMax).toBe(4096 * MiB);
    expect(l.memoryFree).toBe((4096 - (3072 - 1024)) * MiB);
    // CPU time is read where the quota binds: everything beneath it shares it.
    expect(l.cpuUsage!.file).toContain(join('user.slice', 'cpu.stat'));
    expect(readCgroupCpuMs(l.cpuUsage!)).toBe(9000);
  });

  it('no limits anywhere: nothing binds', () => {
    expect(readCgroupLimits(join(fixtures, 'unlimited'))).toEqual({ cpus: null, memoryMax: null, memoryFree: null, cpuUsage: null });
  });

  it('a hybrid host: cgroup2 at /sys/fs/cgroup/unified holds no controllers; the v1 ones hold the limits', () => {
    const l = readCgroupLimits(join(fixtures, 'hybrid-v1'));
    expect(l.cpus).toBe(3.5);
    expect(l.memoryMax).toBe(1024 * MiB);
    expect(l.memoryFree).toBe((1024 - (512 - 256)) * MiB);
    expect(readCgroupCpuMs(l.cpuUsage!)).toBe(7000);
  });

  it('a container without its own cgroup namespace reads the mount itself', () => {
    const l = readCgroupLimits(join(fixtures, 'no-namespace'));
    expect(l.cpus).toBe(0.5);
    expect(l.memoryFree).toBe((512 - 128) * MiB);
  });

  it('a machine without /proc (another OS) has no limits', () => {
    expect(readCgroupLimits(join(fixtures, 'meminfo')).cpus).toBeNull();
  });
});

describe('/proc/meminfo', () => {
  const read = (name: string) => parseMeminfo(readFileSync(join(fixtures, 'meminfo', name), 'utf8'));

  it('total and MemAvailable, in bytes', () => {
    expect(read('modern')).toEqual({ total: 16314500 * 1024, available: 9 * 2 ** 30 });
  });

  it('before MemAvailable existed: free + buffers + cached', () => {
    expect(read('old-kernel')).toEqual({ total: 4096000 * 1024, available: (512000 + 102400 + 1024000) * 1024 });
  });

  it('a file without MemTotal is refused, not read as an empty machine', () => {
    expect(() => read('garbled')).toThrow(/MemTotal/);
  });
});
