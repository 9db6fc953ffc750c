// Counts in words people read outside the window's own formatting (nudge text, CLI tables, tray
// menu, notifications): grouped digits in one fixed locale, so the same backlog reads the same
// everywhere and output does not change with the terminal's or the OS's language.
const grouped = new Intl.NumberFormat('en-US');

/** 4060 → "4,060". */
export const groupedCount = (n: number): string => grouped.format(n);

/** (1, 'worker') → "1 worker"; (4060, 'job') → "4,060 jobs". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${groupedCount(n)} ${n === 1 ? one : many}`;
