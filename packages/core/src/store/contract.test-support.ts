import { afterEach, describe } from 'vitest';
import { auditContract } from './contract-audit.test-support.js';
import { authorizationContract } from './contract-authorization.test-support.js';
import { coordinationContract } from './contract-coordination.test-support.js';
import { eventsContract } from './contract-events.test-support.js';
import { membersContract } from './contract-members.test-support.js';
import { recordContract } from './contract-records.test-support.js';
import { registrationsContract } from './contract-registrations.test-support.js';
import { sessionContract } from './contract-sessions.test-support.js';
import { subscriptionsContract } from './contract-subscriptions.test-support.js';
import { workspaceContract } from './contract-workspaces.test-support.js';
import type { Store } from './types.js';

/**
 * The behaviour every `Store` must have, as vitest blocks. `open` returns a new, empty, not yet migrated store;
 * each test opens its own and the contract closes it afterwards. Only what a caller can observe through the
 * interface is asserted, so that one suite holds SQLite and PostgreSQL to the same semantics.
 */
export function storeContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    const opened: Store[] = [];
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    async function fresh(): Promise<Store> {
      const store = await open();
      opened.push(store);
      await store.migrate();
      return store;
    }

    recordContract(fresh);
    auditContract(fresh);
    coordinationContract(fresh);
    workspaceContract(fresh);
    sessionContract(fresh);
    authorizationContract(fresh);
    membersContract(fresh);
    eventsContract(fresh);
    subscriptionsContract(fresh);
    registrationsContract(fresh);
  });
}
