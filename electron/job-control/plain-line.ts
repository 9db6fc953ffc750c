// A command line that is nothing but plain words (`gzip -9 -c src/app.js`) means, under /bin/sh,
// exactly "run this program with these arguments": no quote, expansion, redirection, glob,
// assignment or keyword to read, and a first word that names no builtin of the shell (whose own
// `echo` or `test` may differ from the program of that name). Such a line can be exec'd by the
// shell at once instead of the shell forking a child for it, which dash does even for a single
// command: a process fewer per job. Pure.

/** Characters a plain word may hold: none of them means anything to a POSIX shell. */
const PLAIN_WORD = /^[A-Za-z0-9_./,:@%+-][A-Za-z0-9_./,:@%+=-]*$/;

/**
 * The builtins and reserved words of every shell /bin/sh may be (dash on Debian, bash on Fedora
 * and macOS, busybox ash, ksh elsewhere): a line starting with one is left to the shell, which
 * means something of its own by it (`source`, `pushd`) that no program of the name would do.
 */
const SHELL_OWN = new Set(
  [
    // POSIX and dash
    '. : [ alias bg break cd chdir command continue echo eval exec exit export false fc fg getopts hash jobs kill local printf pwd read readonly return set shift test times trap true type ulimit umask unalias unset wait',
    // bash, ash and ksh on top
    '[[ ]] bind builtin caller compgen complete compopt declare dirs disown enable help history let logout mapfile popd print pushd readarray shopt source suspend typeset whence',
    '! { } case coproc do done elif else esac fi for function if in select then time until while',
  ]
    .join(' ')
    .split(' '),
);

/** The words of a plain command line, or null when the shell has something to read in it. */
export function plainWords(line: string): string[] | null {
  const words = line.split(/[ \t]+/).filter((w) => w !== '');
  if (words.length === 0 || words.length > 4096) return null;
  if (!words.every((w) => PLAIN_WORD.test(w))) return null;
  const first = words[0]!;
  // `NAME=value cmd` is an assignment; a first word `-x` would be read by `exec` as an option.
  if (SHELL_OWN.has(first) || first.includes('=') || first.startsWith('-')) return null;
  return words;
}
