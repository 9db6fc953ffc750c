// The Kubernetes example in docs/shared-lanes.md is checked against KEDA's own schema (shipped by
// @kubernetes-models/keda), so a field renamed or mistyped there fails here, not in someone's
// cluster; and the list it reads holds a shared lane's backlog: jobs queued through Lanes at the
// default priority, on a real redis-server, are counted there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Redis } from 'ioredis';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFIX } from '../../electron/engine/shared-lanes/parts.js';
import { ROOT } from '../support/daemon.js';
import { engineEachTest } from '../support/engine.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const docs = yaml.loadAll(readFileSync(join(ROOT, 'docs', 'examples', 'lanes-keda.yaml'), 'utf8')) as { apiVersion: string; kind: string; spec: Record<string, unknown> }[];
const ofKind = (kind: string) => docs.filter((d) => d.kind === kind);

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.remove();
});
const t = engineEachTest({ cores: 3 });

type Trigger = { type: string; metadata: { listName: string; listLength: string } };

describe('the KEDA example', () => {
  it('holds a ScaledObject and a TriggerAuthentication that KEDA’s schema accepts', () => {
    expect(ofKind('ScaledObject')).toHaveLength(1);
    for (const d of ofKind('ScaledObject')) expect(() => new ScaledObject(d as never).validate()).not.toThrow();
    for (const d of ofKind('TriggerAuthentication')) expect(() => new TriggerAuthentication(d as never).validate()).not.toThrow();
  });

  it('a mistyped field is caught (the check is not vacuous)', () => {
    const broken = structuredClone(ofKind('ScaledObject')[0]!);
    (broken.spec as { minReplicaCount: unknown }).minReplicaCount = 'none';
    expect(() => new ScaledObject(broken as never).validate()).toThrow();
  });

  it('scales on the shared lane’s BullMQ wait list, and the Deployment it scales is the one given', () => {
    const scaled = ofKind('ScaledObject')[0]!.spec as { scaleTargetRef: { name: string }; triggers: Trigger[] };
    expect(scaled.triggers[0]!.type).toBe('redis');
    expect(scaled.triggers[0]!.metadata.listName).toBe(`${PREFIX}:render:wait`);
    expect(ofKind('Deployment').map((d) => (d as unknown as { metadata: { name: string } }).metadata.name)).toContain(scaled.scaleTargetRef.name);
  });

  it('the list it reads counts the lane’s backlog: 2,000 jobs queued at the default priority (and at 0) are 2,000 there', async () => {
    const trigger = (ofKind('ScaledObject')[0]!.spec as { triggers: Trigger[] }).triggers[0]!;
    const lane = trigger.metadata.listName.split(':')[1]!;
    await t.engine.request('addLane', { name: lane, cap: 0, queue: { redis: redis.url } });
    const argv = ['true'];
    await t.engine.request('addJobs', { jobs: Array.from({ length: 2_000 }, (_, i) => (i % 2 === 0 ? { lane, argv } : { lane, argv, priority: 0 })) });
    const admin = new Redis({ host: '127.0.0.1', port: redis.port });
    try {
      expect(await admin.llen(trigger.metadata.listName)).toBe(2_000);
      expect(await admin.zcard(`${PREFIX}:${lane}:prioritized`)).toBe(0);
    } finally {
      await admin.flushall();
      await admin.quit();
    }
  }, 60_000);
});
