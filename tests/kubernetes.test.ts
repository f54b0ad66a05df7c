import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ENVIRONMENT } from '../apps/gateway/src/config/environment.js';

/**
 * The Kubernetes example in deploy/kubernetes: every document valid against the Kubernetes schemas (kubernetes-models,
 * generated from the Kubernetes OpenAPI), and true to the gateway — variables it reads, the port it listens on, the
 * probes it answers, a grace period longer than its drain, the Secret's keys where the Deployment mounts them.
 */
const ROOT = join(import.meta.dirname, '..');
const documents = (file: string) =>
  parseAllDocuments(readFileSync(join(ROOT, 'deploy/kubernetes', file), 'utf8')).map((d) => d.toJS() as Record<string, unknown>);

async function validate(resource: Record<string, unknown>): Promise<void> {
  const [group, version] = String(resource.apiVersion).includes('/') ? String(resource.apiVersion).split('/') : ['', resource.apiVersion];
  const module = group === '' ? await import('kubernetes-models/v1') : await import(`kubernetes-models/${group}/${version}`);
  const Kind = (module as Record<string, new (value: unknown) => { validate(): void }>)[String(resource.kind)];
  if (!Kind) throw new Error(`no schema for ${String(resource.apiVersion)} ${String(resource.kind)}`);
  new Kind(resource).validate();
}

interface Container {
  ports: Array<{ name: string; containerPort: number }>;
  env: Array<{ name: string; value: string }>;
  volumeMounts: Array<{ name: string; mountPath: string }>;
  livenessProbe: { httpGet: { path: string } };
  readinessProbe: { httpGet: { path: string } };
}

const manifests = documents('portico.yaml');
const secret = documents('secret.example.yaml')[0] as { stringData: Record<string, string>; metadata: { name: string } };
const deployment = manifests.find((m) => m.kind === 'Deployment') as {
  spec: {
    template: {
      spec: {
        terminationGracePeriodSeconds: number;
        containers: Container[];
        volumes: Array<{ name: string; secret?: { secretName: string; items: Array<{ key: string; path: string }> } }>;
      };
    };
  };
};
const container = deployment.spec.template.spec.containers[0] as Container;
const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));

describe('the Kubernetes example', () => {
  it('is a Deployment, a Service and a PodDisruptionBudget, each valid against the Kubernetes schemas; the Secret too', async () => {
    expect(manifests.map((m) => m.kind)).toEqual(['Deployment', 'Service', 'PodDisruptionBudget']);
    for (const resource of [...manifests, secret as unknown as Record<string, unknown>]) await validate(resource);
    // and the validation is not a formality: a port given as a word is refused
    const broken = structuredClone(manifests[0]) as typeof deployment;
    (broken.spec.template.spec.containers[0] as Container).ports[0] = { name: 'http', containerPort: 'eighty' as unknown as number };
    await expect(validate(broken as unknown as Record<string, unknown>)).rejects.toThrow(/containerPort/);
  });

  it('sets only variables the gateway reads, and listens where its probes and the Service look', () => {
    const known = new Set(ENVIRONMENT.flatMap((v) => [v.name, `${v.name}_FILE`]));
    for (const name of Object.keys(env)) expect(known.has(name), name).toBe(true);
    expect(Number(env.PORTICO_PORT)).toBe(container.ports[0]?.containerPort);
    expect(env.PORTICO_HOST).toBe('0.0.0.0');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(Number(env.PORTICO_DRAIN_SECONDS) + 30);
  });

  it('reads its secrets from files of the Secret it mounts, never from plain variables', () => {
    for (const name of ['PORTICO_DATABASE_URL', 'PORTICO_ENCRYPTION_KEY']) expect(env[name], name).toBeUndefined();
    const volume = deployment.spec.template.spec.volumes.find((v) => v.secret);
    expect(volume?.secret?.secretName).toBe(secret.metadata.name);
    const mount = container.volumeMounts.find((m) => m.name === volume?.name)?.mountPath;
    for (const item of volume?.secret?.items ?? []) expect(Object.keys(secret.stringData)).toContain(item.key);
    expect(env.PORTICO_DATABASE_URL_FILE).toBe(`${mount}/database_url`);
    expect(env.PORTICO_ENCRYPTION_KEY_FILE).toBe(`${mount}/encryption_key`);
  });
});
