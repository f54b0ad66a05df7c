import { definePlugin, packageVersion } from '@portico/core/plugin';
import { lawmaticsEvents } from './events.js';
import { identify } from './identify.js';
import { createInteraction, getActivity, listActivities, listInteractions } from './operations/activities.js';
import {
  createTimeEntry,
  getExpense,
  getInvoice,
  getTimeEntry,
  getTransaction,
  listExpenses,
  listInvoices,
  listTimeEntries,
  listTransactions,
  updateTimeEntry,
} from './operations/billing.js';
import {
  createCompany,
  findCompanyByEmail,
  findCompanyByName,
  findCompanyByPhone,
  getCompany,
  listCompanies,
  updateCompany,
} from './operations/companies.js';
import {
  createEmailAddress,
  createPhoneNumber,
  getAddress,
  getCustomContactType,
  getEmailAddress,
  getPhoneNumber,
  listAddresses,
  listCustomContactTypes,
  listEmailAddresses,
  listPhoneNumbers,
} from './operations/contact-info.js';
import {
  createContact,
  deleteContact,
  findContactByEmail,
  findContactByName,
  findContactByPhone,
  getContact,
  listContacts,
  updateContact,
} from './operations/contacts.js';
import {
  cancelEvent,
  createEvent,
  getEvent,
  getEventType,
  listEvents,
  listEventTypes,
  listLocations,
  updateEvent,
} from './operations/events.js';
import { getCustomField, getForm, listCustomFields, listFormEntries, listForms } from './operations/forms.js';
import {
  getCustomEmail,
  getEmailCampaign,
  getEmailCampaignStats,
  listCustomEmails,
  listEmailCampaigns,
  listSources,
} from './operations/marketing.js';
import { createNote, getNote, listNotes, updateNote } from './operations/notes.js';
import { createRelationship, listPracticeAreas, listRelationshipTypes, listStages, listSubStatuses } from './operations/pipeline.js';
import {
  createProspect,
  deleteProspect,
  findProspectByEmail,
  findProspectByName,
  findProspectByPhone,
  getProspect,
  listProspects,
  updateProspect,
} from './operations/prospects.js';
import { attachTags, detachTags, getTag, listTags } from './operations/tags.js';
import { createTask, getTask, listTasks, updateTask } from './operations/tasks.js';
import { getMe, getUser, listUsers } from './operations/users.js';
import { inspect, LAWMATICS_AUTHORIZE_URL, LAWMATICS_BASE_URL, LAWMATICS_TOKEN_URL } from './upstream.js';
import { lawmaticsVocabulary } from './vocabulary.js';

const PLUGIN_VERSION = packageVersion(import.meta.url);

/** The 52 operations of the catalog's legal-CRM table, in its order. */
export const catalogOperations = [
  listProspects,
  getProspect,
  findProspectByPhone,
  findProspectByEmail,
  findProspectByName,
  listContacts,
  getContact,
  findContactByPhone,
  findContactByEmail,
  findContactByName,
  listCompanies,
  getCompany,
  findCompanyByPhone,
  findCompanyByEmail,
  findCompanyByName,
  listAddresses,
  getAddress,
  listEmailAddresses,
  getEmailAddress,
  listPhoneNumbers,
  getPhoneNumber,
  listCustomContactTypes,
  getCustomContactType,
  listCustomFields,
  getCustomField,
  listCustomEmails,
  getCustomEmail,
  listForms,
  getForm,
  listFormEntries,
  listEmailCampaigns,
  getEmailCampaign,
  getEmailCampaignStats,
  listEvents,
  getEvent,
  listLocations,
  listEventTypes,
  getEventType,
  getTag,
  listInvoices,
  getInvoice,
  listExpenses,
  getExpense,
  listTimeEntries,
  getTimeEntry,
  listTransactions,
  getTransaction,
  listActivities,
  getActivity,
  listUsers,
  getUser,
  getMe,
] as const;

/** The 34 the catalog counts but does not show: what intake staff do next, chosen from Lawmatics' API. */
export const chosenOperations = [
  createProspect,
  updateProspect,
  deleteProspect,
  createContact,
  updateContact,
  deleteContact,
  createCompany,
  updateCompany,
  createEmailAddress,
  createPhoneNumber,
  listNotes,
  getNote,
  createNote,
  updateNote,
  listTasks,
  getTask,
  createTask,
  updateTask,
  createEvent,
  updateEvent,
  cancelEvent,
  createTimeEntry,
  updateTimeEntry,
  listTags,
  attachTags,
  detachTags,
  listInteractions,
  createInteraction,
  listPracticeAreas,
  listStages,
  listSubStatuses,
  listSources,
  listRelationshipTypes,
  createRelationship,
] as const;

export const lawmaticsPlugin = definePlugin({
  service: 'lawmatics',
  displayName: 'Lawmatics',
  version: PLUGIN_VERSION,
  description:
    'Lawmatics legal CRM (API v1): prospects (matters) from first inquiry to hired, the contacts and companies behind them, ' +
    'intake forms and their entries, appointments, tasks, notes, tags and the timeline, and billing (invoices, time ' +
    'entries, expenses, payments).',
  contract: 1,
  upstream: { baseUrl: LAWMATICS_BASE_URL, inspect },
  auth: {
    token: {
      description:
        'A Lawmatics OAuth access token (Authorization: Bearer). Lawmatics issues it through its authorization code flow ' +
        'to a developer app (Settings → Developers); it does not expire and has no scopes (full access to the account).',
    },
    // Lawmatics' tokens do not expire and come without a refresh token; there is no revocation endpoint.
    oauth2: {
      authorizeUrl: LAWMATICS_AUTHORIZE_URL,
      tokenUrl: LAWMATICS_TOKEN_URL,
      clientAuth: 'body',
    },
  },
  operations: [...catalogOperations, ...chosenOperations],
  vocabulary: lawmaticsVocabulary,
  events: lawmaticsEvents,
  sandbox: () => import('./sandbox/index.js'),
  identify,
  openapi: {
    version: '1.0.0',
    securitySchemes: {
      bearerApiKey: {
        type: 'http',
        scheme: 'bearer',
        description: 'A Portico API key (portico_…) sent as Authorization: Bearer <key>, for scripts and clients that take a header.',
      },
      // Portico's own authorization server: the gateway fills in its authorize and token endpoints (doors/openapi.ts)
      oauth2: { type: 'oauth2' },
    },
  },
});

export default lawmaticsPlugin;
