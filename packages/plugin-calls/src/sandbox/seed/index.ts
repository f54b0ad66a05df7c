import type { SandboxData } from '../records.js';
import { seedAccounts } from './accounts.js';
import { seedAlerts } from './alerts.js';
import { seedCallerIds } from './caller-ids.js';
import { seedCalls } from './calls.js';
import { seedForms } from './forms.js';
import { seedIntegrations } from './integrations.js';
import { seedMessaging } from './messaging.js';
import { prng } from './random.js';

export { IDS } from './ids.js';

/**
 * The sandbox's data, the same on every start: one seeded random sequence, drawn by the calls and then by the forms
 * (in that order, so that the data does not change).
 */
export function seed(): SandboxData {
  const random = prng(20250615);
  const setup = seedAccounts();
  const { calls, pageViews } = seedCalls(random, setup);
  const forms = seedForms(random, setup);
  const { integrations, triggers } = seedIntegrations();
  const { notifications, summaryEmails } = seedAlerts(setup.users);
  return {
    ...setup,
    calls,
    pageViews,
    forms,
    integrations,
    triggers,
    notifications,
    callerIds: seedCallerIds(),
    threads: seedMessaging(setup),
    summaryEmails,
    nextTagId: 4023001,
  };
}
