import { randomUUID } from 'node:crypto';
import { DEFAULT_WORKSPACE, type Engine, type Logger, PostgresStore, type SandboxServer, type Store } from '@portico/core';

const SANDBOX_KEY_NAME = 'sandbox';
/** Held in shared mode by every sandbox instance of a cluster while it runs; exclusively by the first while it starts. */
const MEMBERS_LOCK = 'sandbox-members';
/** Held by the instance whose sandbox upstreams every instance uses. */
const HOST_LOCK = 'sandbox-host';
/** How often an instance that does not host checks whether the host is gone (and takes over) or has moved. */
const FOLLOW_MS = 1_000;
/** How long an instance joining a cluster waits for the host to publish its upstreams. */
const JOIN_TIMEOUT_MS = 30_000;

export interface SandboxCluster {
  /** The admin key minted at this start, shown once: by the first sandbox instance of the cluster only. */
  createdKey?: { name: string; key: string };
  /** True when another instance of the cluster printed the cluster's sandbox key (this one joined it). */
  joined: boolean;
  close(): Promise<void>;
}

interface Options {
  store: Store;
  engine: Engine;
  logger: Logger;
  /** This instance's own sandbox upstreams (every instance starts them, so that it can take over at once). */
  sandboxes: Record<string, SandboxServer>;
  /** The engine's base URL overrides, changed in place to point at the hosting instance's upstreams. */
  baseUrls: Record<string, string>;
}

/**
 * Sandbox mode: connects the plugins to the sandbox upstreams and mints the sandbox admin key.
 *
 * One process (SQLite): its own upstreams; each start revokes the previous sandbox key and prints a new one — the key
 * is shown once and stored hashed, so the previous one's holder is a process that is gone, and demo keys do not pile up.
 *
 * Several instances on PostgreSQL (docs/adr/0013-sandbox-mode.md): one sandbox key for the cluster,
 * minted (and the previous ones revoked) only by an instance that starts while no other sandbox instance runs — it
 * takes the members lock exclusively, which fails while anyone holds it shared; and one instance, the holder of the
 * host lock, whose in-memory upstreams every instance uses, so that all see the same firm. The host publishes its
 * upstreams' base URLs in `sandbox_upstreams`; the others point at them, and the first to get the host lock after
 * the host's session ends takes over with its own upstreams (seeded afresh: the firm's writes lived in the host).
 */
export async function joinSandbox(options: Options): Promise<SandboxCluster> {
  const { store, logger } = options;
  if (!(store instanceof PostgresStore)) {
    await connect(options);
    return { createdKey: await mintKey(store, options.engine), joined: false, close: async () => {} };
  }
  const id = randomUUID();
  let session = await store.openClusterSession();
  let hosting = false;
  const host = async () => {
    hosting = true;
    for (const [service, sandbox] of Object.entries(options.sandboxes)) options.baseUrls[service] = sandbox.url;
    await connect(options);
    await session.publishSandboxUpstreams(id, sandboxUrls(options));
  };
  const follow = async (): Promise<boolean> => {
    const published = await session.sandboxUpstreams();
    for (const upstream of published) {
      if (Object.hasOwn(options.sandboxes, upstream.service)) options.baseUrls[upstream.service] = upstream.url;
    }
    return published.length > 0;
  };
  let createdKey: SandboxCluster['createdKey'];
  try {
    if (await session.tryLock(MEMBERS_LOCK)) {
      // Nobody else runs: this start begins the cluster's sandbox. Old keys and old hosts' addresses go.
      createdKey = await mintKey(store, options.engine);
      await session.clearSandboxUpstreams();
      await session.lockShared(MEMBERS_LOCK);
      await session.unlock(MEMBERS_LOCK);
    } else {
      await session.lockShared(MEMBERS_LOCK); // waits while the first instance is still starting
    }
    if (await session.tryLock(HOST_LOCK)) {
      await host();
      logger.info({ services: Object.keys(options.sandboxes) }, 'sandbox: this instance hosts the sandbox upstreams of the cluster');
    } else {
      const deadline = Date.now() + JOIN_TIMEOUT_MS;
      while (!(await follow())) {
        if (Date.now() > deadline) throw new Error('sandbox: the instance hosting the sandbox upstreams published none within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      logger.info(
        { upstreams: sandboxUrls(options) },
        'sandbox: joined a cluster; calls go to the sandbox upstreams of the instance hosting them',
      );
    }
  } catch (error) {
    session.close();
    throw error;
  }

  const check = async () => {
    if (!(await session.alive())) {
      // The session holding the locks ended (a database restart, the network): the locks went with it, and every
      // instance contends again. This one rejoins as a member and tries for the host lock below.
      session.close();
      hosting = false;
      session = await store.openClusterSession();
      await session.lockShared(MEMBERS_LOCK);
      logger.warn({ instance: id }, 'sandbox: the database session holding the cluster locks ended; rejoined the sandbox cluster');
    }
    if (hosting) return;
    if (await session.tryLock(HOST_LOCK)) {
      await host();
      logger.warn(
        { upstreams: sandboxUrls(options) },
        'sandbox: no instance hosted the sandbox upstreams; this one does now (freshly seeded)',
      );
    } else {
      await follow();
    }
  };
  let checking: Promise<void> | undefined;
  const timer = setInterval(() => {
    checking ??= check()
      .catch((error: unknown) => logger.warn({ err: error }, 'sandbox: could not check the instance hosting the upstreams'))
      .finally(() => {
        checking = undefined;
      });
  }, FOLLOW_MS);
  timer.unref();
  return {
    ...(createdKey ? { createdKey } : {}),
    joined: createdKey === undefined,
    async close() {
      clearInterval(timer);
      await checking;
      session.close();
    },
  };
}

/** The base URL each sandboxed service is called at now (this instance's upstreams, or the host's). */
function sandboxUrls({ sandboxes, baseUrls }: Options): Record<string, string> {
  return Object.fromEntries(Object.keys(sandboxes).map((service) => [service, baseUrls[service] as string]));
}

/** Connects every sandboxed plugin to its upstream (as recorded in `baseUrls`) and turns both doors on. */
async function connect({ engine, sandboxes }: Options): Promise<void> {
  for (const [service, sandbox] of Object.entries(sandboxes)) {
    await engine.connectToken(DEFAULT_WORKSPACE, service, sandbox.token, { ...sandbox.connection, sandbox: true });
    await engine.configureIntegration(DEFAULT_WORKSPACE, service, { restEnabled: true, mcpEnabled: true });
    // the sandbox signs its webhooks with its app's secret: the default workspace receives them (docs/events.md)
    if (sandbox.webhooks) await engine.events.setSecret(DEFAULT_WORKSPACE, service, sandbox.webhooks.secret);
  }
}

/** Revokes the sandbox keys of earlier starts and mints the one this start prints. */
async function mintKey(store: Store, engine: Engine): Promise<{ name: string; key: string }> {
  for (const key of await store.listApiKeys(DEFAULT_WORKSPACE)) {
    if (key.name === SANDBOX_KEY_NAME && !key.revokedAt) await store.revokeApiKey(DEFAULT_WORKSPACE, key.id, new Date().toISOString());
  }
  const created = await engine.createApiKey({
    workspaceId: DEFAULT_WORKSPACE,
    name: SANDBOX_KEY_NAME,
    scopes: { admin: true, operator: true, services: '*', readOnly: false },
  });
  return { name: SANDBOX_KEY_NAME, key: created.key };
}
