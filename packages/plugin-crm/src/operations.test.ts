import { accessOf } from '@portico/core/plugin';
import { describeFixtures, Registry } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { activityFixtures } from './fixtures/activities.js';
import { billingFixtures } from './fixtures/billing.js';
import { companyFixtures } from './fixtures/companies.js';
import { contactInfoFixtures } from './fixtures/contact-info.js';
import { contactFixtures, pagingFixtures } from './fixtures/contacts.js';
import { eventFixtures } from './fixtures/events.js';
import { formFixtures } from './fixtures/forms.js';
import { marketingFixtures } from './fixtures/marketing.js';
import { noteFixtures } from './fixtures/notes.js';
import { pipelineFixtures } from './fixtures/pipeline.js';
import { prospectFixtures } from './fixtures/prospects.js';
import { invalidInputFixtures } from './fixtures/refused.js';
import { tagFixtures } from './fixtures/tags.js';
import { taskFixtures } from './fixtures/tasks.js';
import { upstreamErrorFixtures } from './fixtures/upstream-errors.js';
import { userFixtures } from './fixtures/users.js';
import { catalogOperations, chosenOperations, lawmaticsPlugin } from './index.js';
import { inspect } from './upstream.js';

/** The success fixtures, by family (the order of operations/). */
const families = {
  prospects: prospectFixtures,
  contacts: contactFixtures,
  companies: companyFixtures,
  'contact details': contactInfoFixtures,
  'custom fields and forms': formFixtures,
  marketing: marketingFixtures,
  events: eventFixtures,
  tags: tagFixtures,
  billing: billingFixtures,
  timeline: activityFixtures,
  users: userFixtures,
  notes: noteFixtures,
  tasks: taskFixtures,
  pipeline: pipelineFixtures,
};

describeFixtures(lawmaticsPlugin, {
  authHeaders: { authorization: 'Bearer fixture-token' },
  groups: {
    ...families,
    paging: pagingFixtures,
    'upstream errors': upstreamErrorFixtures,
    // Not the `refused` option: that asks a refusal of every operation, and these cover the rules, not each operation.
    'refused before any upstream call': invalidInputFixtures,
  },
});

describe('the operation set', () => {
  const operations = lawmaticsPlugin.operations;

  it('has 86 operations with unique names and unique method + path pairs: the catalog’s 52 and 34 chosen', () => {
    expect(catalogOperations).toHaveLength(52);
    expect(chosenOperations).toHaveLength(34);
    expect(operations).toHaveLength(86);
    expect(new Set(operations.map((o) => o.name)).size).toBe(86);
    expect(new Set(operations.map((o) => `${o.method} ${o.path}`)).size).toBe(86);
  });

  it('reads with 63, writes with 20 and deletes with 3 (read-only keys reach only the reads)', () => {
    const count = (access: string) => operations.filter((o) => accessOf(o) === access).length;
    expect([count('read'), count('write'), count('delete')]).toEqual([63, 20, 3]);
  });

  it('names every operation by the convention (list_, get_, find_, create_, update_, delete_, and the verbs of tags and events)', () => {
    for (const operation of operations) {
      expect(operation.name, operation.name).toMatch(/^(list|get|find|create|update|delete|cancel|attach|detach)_[a-z_]+$/);
    }
  });

  it('uses the gateway verbs of the specification: GET, POST, PATCH, DELETE (never PUT), and hyphens in paths', () => {
    for (const operation of operations) {
      expect(['GET', 'POST', 'PATCH', 'DELETE'], operation.name).toContain(operation.method);
      expect(operation.path.replace(/:[a-z_]+/g, ''), operation.name).not.toMatch(/_/);
    }
  });

  it('has a success fixture for every operation, each reaching Lawmatics', () => {
    const covered = new Set(
      Object.values(families)
        .flat()
        .filter((f) => 'output' in f.expect && f.exchanges.length > 0)
        .map((f) => f.operation),
    );
    expect(operations.map((o) => o.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  // That every example passes its own validation and checks is in describeFixtures' declarations, above.
  it('registers under the service key lawmatics', () => {
    expect(new Registry().register(lawmaticsPlugin).service).toBe('lawmatics');
  });

  it('documents every operation and every parameter', () => {
    for (const operation of operations) {
      expect(operation.summary.length, operation.name).toBeGreaterThan(10);
      expect(operation.description.length, operation.name).toBeGreaterThan(80);
      for (const [param, schema] of Object.entries(operation.params.properties as Record<string, { description?: string }>)) {
        expect(schema.description, `${operation.name}.${param}`).toBeTruthy();
      }
    }
  });

  it('declares a response for every operation that answers with a body (deletes and cancels answer with little or nothing)', () => {
    const bare = operations.filter((o) => o.response === undefined).map((o) => o.name);
    expect(bare.sort()).toEqual(['cancel_event', 'delete_contact', 'delete_prospect']);
  });

  it('gives the catalog’s free-form answers no structure and the structured ones the Core Specification’s shapes', () => {
    const free = [
      'find_prospect_by_email',
      'find_prospect_by_name',
      'list_companies',
      'list_custom_emails',
      'get_custom_email',
      'list_email_campaigns',
      'get_email_campaign',
      'get_email_campaign_stats',
    ];
    const schema = (name: string) => operations.find((o) => o.name === name)?.response as Record<string, unknown>;
    for (const name of free) expect(schema(name).patternProperties ?? schema(name).additionalProperties, name).toBeDefined();
    const properties = (name: string) => Object.keys((schema(name).properties ?? {}) as object).sort();
    expect(properties('list_prospects')).toEqual(['data', 'links', 'meta']);
    expect(properties('list_custom_fields')).toEqual(['data']);
    expect(properties('list_forms')).toEqual(['data']);
    expect(properties('get_prospect')).toEqual(['data']);
    const links = (schema('list_contacts').properties as Record<string, { properties: object }>).links;
    expect(Object.keys(links?.properties ?? {}).sort()).toEqual(['next', 'prev', 'self']);
  });
});

describe('record shapes of the Core Specification', () => {
  const recordOf = (name: string) => {
    const response = lawmaticsPlugin.operations.find((o) => o.name === name)?.response as Record<string, unknown>;
    const data = (response.properties as Record<string, { anyOf: Array<Record<string, unknown>> }>).data;
    return data?.anyOf[0]?.properties as Record<string, { anyOf: Array<{ properties: Record<string, unknown> }> }>;
  };
  const keys = (name: string, part: 'attributes' | 'relationships') => Object.keys(recordOf(name)[part]?.anyOf[0]?.properties ?? {}).sort();

  it('gives get_prospect the prospect attributes and relationships, and nothing else', () => {
    const strings =
      'first_name last_name case_title case_blurb status email phone phone_number email_address address birthdate name_prefix ' +
      'middle_name name_suffix sub_status informal_name employer occupation citizenship bio title hobbies social_security age ' +
      'referring_url driver_license gender marital_status timezone date_of_last_contact photo_url created_at updated_at';
    const numbers = 'estimated_value_cents actual_value_cents lead_cost_cents days_since_last_contact';
    expect(keys('get_prospect', 'attributes')).toEqual([...strings.split(' '), ...numbers.split(' '), 'custom_fields'].sort());
    expect(keys('get_prospect', 'relationships')).toEqual(
      'source stage campaign practice_area created_by owned_by events documents notes tasks invoices emails phone_numbers addresses relationships'
        .split(' ')
        .sort(),
    );
  });

  it('gives get_contact the contact attributes and relationships, and nothing else', () => {
    const strings =
      'first_name last_name email email_address phone phone_number birthdate name_prefix middle_name name_suffix informal_name ' +
      'employer occupation citizenship bio title hobbies social_security age driver_license gender marital_status timezone ' +
      'tracking_source_id date_of_last_contact photo_url contact_type created_at updated_at';
    expect(keys('get_contact', 'attributes')).toEqual([...strings.split(' '), 'days_since_last_contact', 'custom_fields'].sort());
    expect(keys('get_contact', 'relationships')).toEqual(['client', 'company', 'created_by', 'prospects']);
  });
});

describe('Lawmatics error reading', () => {
  it('joins the title and detail of every JSON:API error', () => {
    expect(
      inspect({
        status: 422,
        headers: {},
        body: { errors: [{ title: 'Invalid', detail: 'name is missing' }, { detail: 'email is invalid' }] },
      }),
    ).toEqual({ status: 422, message: 'Invalid: name is missing; email is invalid' });
  });

  it('never repeats a credential an upstream echoes back', () => {
    const failure = inspect({ status: 401, headers: {}, body: { error: 'Bad header: Bearer s3cr3t-token.value' } });
    expect(failure?.message).not.toContain('s3cr3t');
  });

  it('passes on a Retry-After of a 429 and treats every 2xx as success', () => {
    expect(inspect({ status: 429, headers: { 'retry-after': '12' }, body: undefined })).toEqual({
      status: 429,
      message: 'too many requests',
      retryAfter: 12,
    });
    expect(inspect({ status: 200, headers: {}, body: { errors: ['looks like an error but is data'] } })).toBeUndefined();
    expect(inspect({ status: 204, headers: {}, body: undefined })).toBeUndefined();
  });
});

describe('connection settings', () => {
  it('authorizes with Lawmatics’ OAuth endpoints, client credentials in the body, no scopes, refresh or revocation', () => {
    expect(lawmaticsPlugin.auth.oauth2).toEqual({
      authorizeUrl: 'https://app.lawmatics.com/oauth/authorize',
      tokenUrl: 'https://api.lawmatics.com/oauth/token',
      clientAuth: 'body',
    });
    expect(lawmaticsPlugin.auth.token?.description).toBeTruthy();
    expect(lawmaticsPlugin.upstream.baseUrl).toBe('https://api.lawmatics.com/v1');
    expect(lawmaticsPlugin.sandbox).toBeTypeOf('function');
  });
});
