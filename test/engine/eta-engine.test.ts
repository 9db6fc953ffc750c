// The estimate against a real engine: a long job after short ones promises no seconds, and while
// all work is paused there is no estimate at all.
import { describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';
import type { LanesEvent } from '../../shared/events.js';

const t = engineEachTest({ cores: 3 });
const lane = () => t.engine.status().lanes.find((l) => l.name === 'worker')!;
const startedEvent = (e: LanesEvent) => e.type === 'job' && e.data.state === 'running' && e.data.command.includes('sleep');

describe('the estimate', () => {
  it('a long job after a run of short ones: "estimating", never seconds; paused: none', async () => {
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 5 }, () => ({ argv: ['true'] })) });
    await jobsFinished(t.engine, ids);
    const running = nextEvent(t.engine, startedEvent);
    const long = await t.engine.request('addJob', { argv: ['sleep', '40'] });
    await running;
    // Once it has run well past every short run seen, the short runs say nothing about it.
    await until(t.engine, () => lane().etaState === 'estimating', 20_000, 'estimating');
    expect(lane()).toMatchObject({ running: 1, etaMs: null });

    await t.engine.request('pause', {});
    expect(lane()).toMatchObject({ etaState: 'paused', etaMs: null });
    await t.engine.request('resume', {});
    await t.engine.request('cancel', { id: long.id });
  });
});
