import { definePlugin, packageVersion } from '@portico/core';
import { practiceOperations } from './operations.js';
import { baseUrlFor, inspect, oauth2, settingsSchema, versionHeaders } from './upstream.js';

const PLUGIN_VERSION = packageVersion(import.meta.url);

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
  operations: practiceOperations(),
  sandbox: () => import('./sandbox/index.js'),
});

export default clioPlugin;

export { COLLECTIONS } from './collections.js';
export { type CollectionRow, collectionOperations, type Verb } from './factory.js';
