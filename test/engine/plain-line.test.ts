// Which command lines are plain words the shell may exec at once, and which it has to read.
import { describe, expect, it } from 'vitest';
import { plainWords } from '../../electron/job-control/plain-line.js';

describe('a plain command line', () => {
  it.each<[string, string[] | null]>([
    ['gzip -9 -c node_modules/a/index.js', ['gzip', '-9', '-c', 'node_modules/a/index.js']],
    ['  make   -j4\tall ', ['make', '-j4', 'all']],
    ['/usr/bin/env node --version', ['/usr/bin/env', 'node', '--version']],
    ['rsync -a src/ user@host:/backup/src,old', ['rsync', '-a', 'src/', 'user@host:/backup/src,old']],
    ['ffmpeg -i in.mp4 -vf scale=640:-1 out%03d.png', ['ffmpeg', '-i', 'in.mp4', '-vf', 'scale=640:-1', 'out%03d.png']],
    // The shell has something to read: left to it.
    ['echo hello', null],
    ['true', null],
    ['test -f x', null],
    ['[ -f x ]', null],
    ['cd /tmp', null],
    ['exit 3', null],
    // Builtins of bash, ash or ksh, which /bin/sh is on other systems.
    ['source env.sh', null],
    ['pushd /tmp', null],
    ['declare -x A', null],
    ['let x', null],
    ['shopt -s nullglob', null],
    ['builtin cd /tmp', null],
    ['typeset x', null],
    ['if', null],
    ['X=1 make', null],
    ['-x', null],
    ['gzip -c a.js > a.gz', null],
    ['make && make install', null],
    ['ls *.js', null],
    ['ls ~/src', null],
    ['echo "$HOME"', null],
    ["grep 'a b' f", null],
    ['a\\ b', null],
    ['make # the build', null],
    ['ls {a,b}', null],
    ['sleep 1 &', null],
    ['a;b', null],
    ['', null],
    ['   ', null],
  ])('%j → %j', (line, words) => {
    expect(plainWords(line)).toEqual(words);
  });
});
