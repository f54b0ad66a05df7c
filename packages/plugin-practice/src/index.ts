import { definePlugin, packageVersion } from '@portico/core/plugin';
import { clioEvents } from './events.js';
import { identify } from './identify.js';
import { activities } from './operations/activities.js';
import { bankAccounts } from './operations/bank-accounts.js';
import { bills } from './operations/bills.js';
import { calendar } from './operations/calendar.js';
import { clioFile } from './operations/clio-file.js';
import { clioPayments } from './operations/clio-payments.js';
import { communications } from './operations/communications.js';
import { contacts } from './operations/contacts.js';
import { courtRules } from './operations/court-rules.js';
import { customActions } from './operations/custom-actions.js';
import { customFields } from './operations/custom-fields.js';
import { documentAutomation } from './operations/document-automation.js';
import { documents } from './operations/documents.js';
import { withExamples } from './operations/kit/examples.js';
import { inListingOrder } from './operations/kit/listing.js';
import type { CollectionRow } from './operations/kit/rows.js';
import { legalAid } from './operations/legal-aid.js';
import { matters } from './operations/matters.js';
import { medicalRecords } from './operations/medical-records.js';
import { notes } from './operations/notes.js';
import { notifications } from './operations/notifications.js';
import { practiceAreas } from './operations/practice-areas.js';
import { reports } from './operations/reports.js';
import { settings } from './operations/settings.js';
import { tasks } from './operations/tasks.js';
import { users } from './operations/users.js';
import { webhooks } from './operations/webhooks.js';
import { baseUrlFor, inspect, oauth2, settingsSchema, versionHeaders } from './upstream.js';
import { clioVocabulary } from './vocabulary.js';

const PLUGIN_VERSION = packageVersion(import.meta.url);

/** Clio's resource families, one file of src/operations/ each. */
const FAMILIES = [
  activities,
  bankAccounts,
  bills,
  calendar,
  clioFile,
  clioPayments,
  communications,
  contacts,
  courtRules,
  customActions,
  customFields,
  documentAutomation,
  documents,
  legalAid,
  matters,
  medicalRecords,
  notes,
  notifications,
  practiceAreas,
  reports,
  settings,
  tasks,
  users,
  webhooks,
];

/**
 * The collection table: one row for each Clio collection that follows its list/get/create/update/delete convention
 * (97 of them), each declared in its family's file, which `collectionOperations` turns into operations. The
 * operations that do not fit a row (a download, a copy, the timer …) are declared beside their collection's row.
 */
export const COLLECTIONS: readonly CollectionRow[] = FAMILIES.flatMap((family) => family.rows);

export const clioPlugin = definePlugin({
  service: 'clio',
  displayName: 'Clio Manage',
  version: PLUGIN_VERSION,
  description:
    'Clio Manage (API v4), practice management for law firms: matters and contacts, time entries and expenses ' +
    '(activities), bills, trust and bank transactions, calendars, tasks, documents and folders, notes and ' +
    'communications, court rules (jurisdictions, triggers, matter dockets), users, reports and more. Clio returns only ' +
    'id and etag unless fields names what to return.',
  contract: 1,
  upstream: {
    baseUrl: baseUrlFor,
    headers: versionHeaders,
    inspect,
    // Clio's limit per access token: 50 requests a minute at peak hours (more off-peak) (README, Rate limits).
    limits: { perMinute: 50 },
  },
  auth: {
    token: {
      description:
        'A Clio Manage OAuth access token (30 days), with the account’s region as a connection fact when it is not the US: ' +
        'portico connect clio --token - [--meta region=eu|ca|au]. A pasted token is not refreshed: prefer the OAuth connection (--oauth).',
    },
    oauth2,
  },
  settings: settingsSchema,
  operations: inListingOrder(withExamples(FAMILIES.flatMap((family) => family.operations))),
  vocabulary: clioVocabulary,
  events: clioEvents,
  sandbox: () => import('./sandbox/index.js'),
  identify,
});

export default clioPlugin;

export { type CollectionRow, collectionOperations, type Verb } from './operations/kit/rows.js';
