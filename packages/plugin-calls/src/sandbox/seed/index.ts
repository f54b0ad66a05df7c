import { shiftSeededDates } from '@portico/core/testing/emulator';
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

/** The day the accounts' set-up dates (created, disabled…) are written against; calls, forms and texts use today. */
const AUTHORED_TODAY = '2025-06-15';

/**
 * The sandbox's data, the same on every start of a day: one seeded random sequence, drawn by the calls and then by the
 * forms (in that order, so that the data does not change). Calls, forms and text threads are dated back from the
 * sandbox clock's today; the set-up records' dates are moved onto it from AUTHORED_TODAY.
 */
export function seed(): SandboxData {
  const random = prng(20250615);
  const setup = shiftSeededDates(seedAccounts(), AUTHORED_TODAY);
  const { calls, pageViews } = seedCalls(random, setup);
  const forms = seedForms(random, setup);
  const { integrations, triggers } = shiftSeededDates(seedIntegrations(), AUTHORED_TODAY);
  const { notifications, summaryEmails } = shiftSeededDates(seedAlerts(setup.users), AUTHORED_TODAY);
  return {
    ...setup,
    calls,
    pageViews,
    forms,
    integrations,
    triggers,
    notifications,
    callerIds: shiftSeededDates(seedCallerIds(), AUTHORED_TODAY),
    threads: seedMessaging(setup),
    summaryEmails,
    nextTagId: 4023001,
  };
}
