// A shared lane's nudge speaks for this machine's cap, and says what the other machines of the
// lane are doing, so a person does not raise a cap to run what others are already running. Pure.
import type { Nudge } from '../../../shared/model.js';
import { plural } from '../../../shared/format.js';

export function withElsewhere(nudge: Nudge | null, elsewhere: { workers: number; machines: number }): Nudge | null {
  if (!nudge || elsewhere.workers === 0) return nudge;
  const more = `${elsewhere.workers} more running on ${plural(elsewhere.machines, 'other machine')}.`;
  return { ...nudge, text: `${nudge.text} ${more}` };
}
