// The Kubernetes example in docs/shared-lanes.md is checked against KEDA's own schema (shipped by
// @kubernetes-models/keda), so a field renamed or mistyped there fails here, not in someone's
// cluster; and its list name is the one BullMQ keeps a shared lane's waiting jobs in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { PREFIX } from '../../electron/engine/shared-lanes/parts.js';
import { ROOT } from '../support/daemon.js';

const docs = yaml.loadAll(readFileSync(join(ROOT, 'docs', 'examples', 'lanes-keda.yaml'), 'utf8')) as { apiVersion: string; kind: string; spec: Record<string, unknown> }[];
const ofKind = (kind: string) => docs.filter((d) => d.kind === kind);

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
    const scaled = ofKind('ScaledObject')[0]!.spec as { scaleTargetRef: { name: string }; triggers: { type: string; metadata: { listName: string } }[] };
    expect(scaled.triggers[0]!.type).toBe('redis');
    expect(scaled.triggers[0]!.metadata.listName).toBe(`${PREFIX}:render:wait`);
    expect(ofKind('Deployment').map((d) => (d as unknown as { metadata: { name: string } }).metadata.name)).toContain(scaled.scaleTargetRef.name);
  });
});
