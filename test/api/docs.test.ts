// The reference docs list what the contract and the CLI actually have, so they cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../electron/cli/program.js';
import { requests } from '../../shared/requests.js';
import { ROOT } from '../support/daemon.js';

describe('docs', () => {
  it('api.md has one routes-table row per request, with its method and path', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `(\w+)` \| (GET|POST|DELETE) \| `([^`]+)` \|/gm)].map((m) => [m[1], m[2], m[3]]);
    const contract = Object.entries(requests).map(([name, r]) => [name, r.method, r.path]);
    expect(rows).toEqual(contract);
  });

  it('cli.md describes every command', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    for (const cmd of buildProgram().commands) {
      const names = cmd.commands.length > 0 ? cmd.commands.map((sub) => `${cmd.name()} ${sub.name()}`) : [cmd.name()];
      for (const name of names) expect(doc, name).toContain(`\`lanes ${name}`);
    }
  });
});
