// The name this engine goes by where engines meet (shared lanes): in the window's "ran on", in
// each job's environment as LANES_MACHINE, among the lane's engines. The host name unless
// LANES_MACHINE says otherwise (two engines on one host, or a host name that says nothing).
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function engineIdentity(dataDir: string, log: (line: string) => void): { machine: string; engineId: string } {
  const given = process.env.LANES_MACHINE;
  let machine = hostname().split('.')[0] || 'lanes';
  if (given !== undefined && given !== '') {
    if (NAME.test(given)) machine = given;
    else log(`LANES_MACHINE must be 1–64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit; using "${machine}"`);
  }
  if (!NAME.test(machine)) machine = 'lanes';
  // Two engines of one machine (two data directories) are two engines; a restarted one is the same.
  const engineId = `${machine}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  return { machine, engineId };
}
