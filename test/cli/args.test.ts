// The pure parts of the CLI: how words become a job, numbers, quoting, and the human formats.
import { describe, expect, it } from 'vitest';
import { commandSpec, envPair, splitWords, wholeNumber } from '../../electron/cli/args.js';
import { count, duration, table } from '../../electron/cli/format.js';
import { describeSpec } from '../../shared/format.js';
import { httpTarget } from '../../shared/client/http-target.js';

describe('commandSpec: argv or shell', () => {
  const cases: [string[], boolean | undefined, object][] = [
    [['ffmpeg', '-i', 'a b.mov'], undefined, { argv: ['ffmpeg', '-i', 'a b.mov'] }],
    [['./build.sh'], undefined, { argv: ['./build.sh'] }],
    [['make -j4 && ./test'], undefined, { shell: 'make -j4 && ./test' }],
    [['echo $HOME'], undefined, { shell: 'echo $HOME' }],
    [['ls *.txt'], undefined, { shell: 'ls *.txt' }],
    [['echo', 'a|b'], undefined, { argv: ['echo', 'a|b'] }],
    [['echo', 'hi'], true, { shell: 'echo hi' }],
    [['/opt/My App/run'], false, { argv: ['/opt/My App/run'] }],
  ];
  it.each(cases)('%j (shell: %s)', (words, shell, expected) => {
    expect(commandSpec(words, shell)).toEqual(expected);
  });
});

describe('wholeNumber', () => {
  const cap = wholeNumber('the cap', 0);
  it.each([['0', 0], ['12', 12]])('accepts %j', (text, n) => expect(cap(text)).toBe(n));
  it.each([['-1', /at least 0/], ['1.5', /whole number/], ['', /whole number/], ['3x', /whole number/], ['1e3', /whole number/], [' 3 ', /whole number/], [' 5', /whole number/]])(
    'refuses %j',
    (text, message) => expect(() => cap(text)).toThrow(message),
  );
});

describe('splitWords', () => {
  it.each([
    ['python3 serve.py --model m', ['python3', 'serve.py', '--model', 'm']],
    [`python3 "my worker.py" 'a b' c\\ d`, ['python3', 'my worker.py', 'a b', 'c d']],
    [`say "quote \\" inside" ''`, ['say', 'quote " inside', '']],
    ['  spaced   out  ', ['spaced', 'out']],
  ])('%j', (text, words) => expect(splitWords(text)).toEqual(words));
  it('refuses an unterminated quote', () => expect(() => splitWords('a "b')).toThrow(/unterminated/));
});

describe('envPair', () => {
  it('collects KEY=VALUE, keeping = in values', () => {
    expect(envPair('B=x=y', envPair('A=1'))).toEqual({ A: '1', B: 'x=y' });
    expect(() => envPair('=1')).toThrow(/KEY=VALUE/);
  });
});

describe('formats', () => {
  it('groups digits and shortens durations', () => {
    expect(count(4060)).toBe('4,060');
    expect(count(1_234_567)).toBe('1,234,567');
    expect([450, 1234, 95_000, 7_200_000].map(duration)).toEqual(['450ms', '1.2s', '1m35s', '2h00m']);
  });

  it('quotes argv words only where needed', () => {
    expect(describeSpec({ kind: 'argv', argv: ['echo', 'a b', "it's", 'plain-word'] })).toBe(`echo 'a b' 'it'\\''s' plain-word`);
  });

  it('aligns columns, numbers to the right', () => {
    const text = table(['NAME', 'N', 'NOTE'], [['a', '1', 'x'], ['long', '1,000', 'y']], ['left', 'right', 'left']);
    expect(text).toBe('NAME      N  NOTE\na         1  x\nlong  1,000  y\n');
  });
});

describe('httpTarget', () => {
  it('fills path segments, puts GET fields in the query and the rest in a body', () => {
    expect(httpTarget('logTail', { id: 7, stream: 'stderr', maxBytes: 10 })).toEqual({ method: 'GET', url: '/api/jobs/7/log?stream=stderr&maxBytes=10', body: undefined });
    expect(httpTarget('setCap', { lane: 'ml', cap: 2 })).toEqual({ method: 'POST', url: '/api/lanes/ml/cap', body: { cap: 2 } });
    expect(httpTarget('removeLane', { name: 'a-b' })).toEqual({ method: 'DELETE', url: '/api/lanes/a-b', body: {} });
    expect(httpTarget('status', {})).toEqual({ method: 'GET', url: '/api/status', body: undefined });
  });
});
