import { describe, expect, it } from 'vitest';
import { defineOperation } from './operation.js';
import { definePlugin } from './plugin.js';
import { Registry } from './registry.js';
import { Params, Type } from './schema.js';
import { OperationIndex } from './search.js';
import { readQuery } from './search-intent.js';
import { Lexicon } from './search-lexicon.js';
import { normalize, stem } from './search-words.js';
import type { PluginVocabulary } from './vocabulary.js';

const op = (name: string, path: string, summary: string, description: string) =>
  defineOperation({
    name,
    method: 'GET',
    path,
    summary,
    description,
    params: Params({ id: Type.String() }),
    upstream: { method: 'GET', path },
  });

const plugin = (service: string, operations: ReturnType<typeof op>[], vocabulary: PluginVocabulary = {}) =>
  definePlugin({
    vocabulary,
    service,
    displayName: service,
    version: '1.0.0',
    description: `${service} test plugin`,
    contract: 1,
    upstream: { baseUrl: `https://${service}.invalid` },
    auth: {},
    operations,
  });

const registry = new Registry();
registry.register(
  plugin(
    'calls',
    [
      op('get_call', '/calls/:id', 'Retrieve one call', 'Returns one call: answered, duration, customer name and number.'),
      op('list_calls', '/calls', 'List calls', 'Lists the calls of the account, newest first.'),
    ],
    { synonyms: { call: ['phone', 'caller', 'rang'] } },
  ),
);
registry.register(
  plugin(
    'crm',
    [
      op('get_phone_number', '/phone-numbers/:id', 'Retrieve one phone number', 'Returns one phone number of a contact.'),
      op('find_contact_by_phone', '/contacts/find-by-phone/:id', 'Find a contact by phone number', 'The contact with this phone.'),
      op('get_message', '/messages/:id', 'Retrieve one message', 'Returns one message.'),
      op('get_sms', '/sms/:id', 'Retrieve one SMS', 'Returns one SMS.'),
    ],
    { synonyms: { message: ['text'], sms: ['text', 'texting'] } },
  ),
);
const index = new OperationIndex(registry.list());
const top = (query: string, limit = 3) => index.search(query, { limit }).map((hit) => `${hit.service}.${hit.method}`);

describe('OperationIndex', () => {
  it('reads a word that stands for another word of the query as a qualifier of it: a phone call is a call', () => {
    expect(top('get the details of one phone call')[0]).toBe('calls.get_call');
    expect(top('phone call history')[0]).toBe('calls.list_calls');
  });

  it('still reads the word alone as itself and as the word it stands for', () => {
    expect(top('find a contact by phone')[0]).toBe('crm.find_contact_by_phone');
    expect(top('get a phone number')[0]).toBe('crm.get_phone_number');
    // "phone" alone also stands for "call"
    expect(top('phone log', 5)).toContain('calls.list_calls');
    // "text" stands for message and SMS: with neither in the query, both are found
    expect(top('read one text', 5)).toEqual(expect.arrayContaining(['crm.get_message', 'crm.get_sms']));
  });

  it('finds nothing for words no operation uses', () => {
    expect(index.search('zzzz qqqq', { limit: 5 })).toEqual([]);
  });
});

describe('OperationIndex words', () => {
  const words = new Registry();
  words.register(plugin('files', [op('upload_file', '/files', 'Upload a file', 'Uploads a file to a channel.')]));
  words.register(
    plugin('practice', [
      op('list_matters', '/matters', 'List matters', 'Lists the matters (cases) of the firm.'),
      op('get_matter', '/matters/:id', 'Get one matter', 'Returns one matter with its responsible attorney.'),
      op('create_matter', '/matters/new', 'Create a matter', 'Opens a matter for a client, with its responsible attorney.'),
      op('update_matter', '/matters/:id/edit', 'Update a matter', 'Changes a matter: status, responsible attorney.'),
      op('list_hearings', '/hearings', 'List hearings', 'Lists the court hearings of a matter.'),
    ]),
  );
  const wordIndex = new OperationIndex(words.list());
  const find = (query: string, limit = 3) => wordIndex.search(query, { limit }).map((hit) => `${hit.service}.${hit.method}`);

  it('reads synonyms in the query only: a file of the user may be a matter, an operation on files is not one', () => {
    expect(find('open the Smith file')[0]).toBe('practice.get_matter');
    expect(find('list the matters', 10)).not.toContain('files.upload_file');
  });

  it('reads a question as a wish to read, and "new" as a wish to create', () => {
    expect(find('who is the responsible attorney on the matter').slice(0, 2)).toEqual(
      expect.arrayContaining(['practice.get_matter', 'practice.list_matters']),
    );
    expect(find('a new matter for a client')[0]).toBe('practice.create_matter');
  });

  it('stems a plural in -ings like its singular', () => {
    expect(find('hearings')[0]).toBe('practice.list_hearings');
    expect(find('the next hearing')[0]).toBe('practice.list_hearings');
  });
});

describe('OperationIndex intent', () => {
  const acme = new Registry();
  acme.register(
    plugin('acme', [
      op('list_tasks', '/tasks', 'List tasks', 'Lists the to-dos of the firm, by assignee and due date.'),
      op('list_acme_payments_payments', '/payments', 'List card payments', 'Lists the payments clients made by card.'),
      op('list_reports', '/reports', 'List reports', 'Lists the reports already generated, ready to download.'),
      op('create_report', '/reports/new', 'Run a report', 'Starts generating a report for a period.'),
      op('list_webhooks', '/webhooks', 'List webhooks', 'Lists the webhooks that notify other systems of changes.'),
      op('create_webhook', '/webhooks/new', 'Create a webhook', 'Registers a webhook to notify another system.'),
      op('list_matters', '/matters', 'List matters', 'Lists the matters of the firm, by status and billing readiness.'),
      op('create_matter', '/matters/new', 'Create a matter', 'Opens a matter for a client.'),
      op('list_prospects', '/prospects', 'List prospects', 'Lists the potential clients, newest first.'),
      op('find_prospect_by_email', '/prospects/find', 'Find a potential client by email', 'The potential client with this email.'),
      op('list_calls', '/calls', 'List calls', 'Lists the phone calls of the firm.'),
      op('list_users', '/users', 'List users', 'Lists who works at the firm: the users, who they are and who they report to.'),
    ]),
  );
  const intentIndex = new OperationIndex(acme.list());
  const first = (query: string) => {
    const [hit] = intentIndex.search(query, { limit: 1 });
    return hit?.method;
  };

  it("reads a service's own brand in its operation names as no topic", () => {
    expect(first('my to-do list in Acme')).toBe('list_tasks');
  });

  it('reads "run" and "set" as asking to act, and a verb after a noun or inside a question as a qualifier', () => {
    expect(first('run a productivity report for last month')).toBe('create_report');
    expect(first('what webhooks are set up to notify other systems')).toBe('list_webhooks');
    expect(first('matters ready to bill')).toBe('list_matters');
  });

  it('reads "who called" as a question about calls, and weighs a lookup by a key the query does not give less', () => {
    expect(first('who called yesterday')).toBe('list_calls');
    expect(first('potential clients added since Monday')).toBe('list_prospects');
    expect(first('the potential client with email ann@example.com')).toBe('find_prospect_by_email');
  });
});

describe('OperationIndex spelling, names and everyday verbs', () => {
  const office = new Registry();
  const listing = (name: string, path: string, summary: string, description: string) =>
    defineOperation({
      name,
      method: 'GET',
      path,
      summary,
      description: `${description} Paging: up to limit records per page; call again with page_token for the next page.`,
      params: Params({ id: Type.String(), page_token: Type.Optional(Type.String({ description: 'The page to return' })) }),
      upstream: { method: 'GET', path },
    });
  office.register(
    plugin(
      'office',
      [
        op('create_event', '/events/new', 'Schedule an appointment', 'Books an appointment with a client.'),
        op('update_event', '/events/:id/edit', 'Reschedule an appointment', 'Moves an appointment to another day.'),
        op('cancel_event', '/events/:id/cancel', 'Cancel an appointment', 'Cancels an appointment.'),
        op('list_channels', '/channels', 'List channels', 'Lists the chat channels of the firm.'),
        op('list_bills', '/bills', 'List bills', 'Lists the bills of the firm, by billing status.'),
        op('update_task', '/tasks/:id/edit', 'Update a task', 'Changes a task: its priority or due date.'),
        op('get_task', '/tasks/:id', 'Get a task', 'Returns one task with its priority.'),
        op('list_templates', '/templates', 'List checklist templates', 'Lists the intake checklist templates.'),
        op('search_pages', '/pages/search', 'Find pages by title', 'Finds the wiki pages whose title contains the text.'),
        op('get_page', '/pages/:id', 'Get a page', "Returns one page's properties."),
        listing('list_invoices', '/invoices', 'List invoices', 'Lists the invoices of the firm.'),
      ],
      { named: ['channel', 'page'] },
    ),
  );
  const officeIndex = new OperationIndex(office.list());
  const first = (query: string) => officeIndex.search(query, { limit: 1 })[0]?.method;

  it('reads a slip of the keyboard as the word meant, and a capitalised word or a real ending as written', () => {
    expect(first('shedule a consult with the client')).toBe('create_event');
    expect(first('cancle the appointment')).toBe('cancel_event');
    expect(first('the invocies of the firm')).toBe('list_invoices');
    expect(officeIndex.namedServices('Cancle')).toEqual([]);
    expect(officeIndex.search('Jonse', { limit: 3 })).toEqual([]);
  });

  it('reads everyday verbs of change: "put off", "bump up"', () => {
    expect(first('put off the appointment until Friday')).toBe('update_event');
    expect(first('bump up the priority of the task')).toBe('update_task');
  });

  it("reads the words naming one record (before its noun, in quotes, after 'titled') as a name, not a topic", () => {
    expect(first('the billing channel')).toBe('list_channels');
    expect(first('find the page titled Client intake checklist')).toMatch(/^(search_pages|get_page)$/);
    expect(first('find the page "Intake checklist"')).toMatch(/^(search_pages|get_page)$/);
  });

  it('reads a record said to be changing as one to change, a dash as a break between clauses, an adverb after a noun as no request', () => {
    const action = (text: string) => readQuery(text, new Lexicon()).action;
    expect(action('the Okafor closing is moving to 3:30 on Thursday')).toBe('update');
    expect(action('the deposition got pushed to Friday')).toBe('update');
    expect(action('matters that are closing this month')).toBe('read');
    expect(action('she is co-counsel now - update her role')).toBe('update');
    expect(action('income by client, which clients actually make us money')).toBe('read');
    expect(action('quickly add a note')).toBe('create');
  });

  it('reads the verb after an application named first as the request, with or without a comma', () => {
    const action = (text: string) => readQuery(text, new Lexicon(), new Set(['clio'])).action;
    expect(action('in Clio make a Discovery folder under the Lindqvist matter')).toBe('create');
    expect(action('in Clio, make a Discovery folder')).toBe('create');
    expect(action('in Clio record the trust deposit from Gina Marsh')).toBe('create');
    // A place that is no application stays part of the clause.
    expect(action('in the Pleadings folder make a copy')).not.toBe('create');
  });

  it('reads "let … know" as telling, what a person called to ask for as the request, a verb before a name as one', () => {
    expect(normalize('let the folks in #litigation know the depo moved')).toContain('tell the folks in #litigation');
    const action = (text: string) => readQuery(text, new Lexicon(), new Set(['slack']), new Set([stem('message')])).action;
    expect(action('Jamal Wright called to cancel his consult tomorrow')).toBe('delete');
    expect(action('message Tom Becker that his documents are ready')).toBe('write');
    expect(action('Beatrice Laurent called again')).toBe('read');
    expect(action('latest Slack messages in the intake channel')).toBe('read');
  });

  it('leaves paging out of what an operation is about: "page" finds pages, not paged listings', () => {
    expect(officeIndex.search('page', { limit: 10 }).map((hit) => hit.method)).not.toContain('list_invoices');
  });
});

describe('cues', () => {
  const cued = new Registry();
  cued.register(
    plugin('tracko', [op('update_call', '/calls/:id', 'Add a note to a call', 'Changes the note of one call.')], {
      cues: ['note on the * call'],
    }),
  );
  cued.register(plugin('chatto', [op('add_reaction', '/reactions', 'Add an emoji reaction', 'Reacts to a message.')], { cues: [':*:'] }));
  const cuedIndex = new OperationIndex(cued.list());

  it('reads a time of day as one word of a cue ("the 9:40 call"), and a word between colons as one word', () => {
    expect(cuedIndex.namedServices('put a note on the 9:40 call')).toEqual(['tracko']);
    expect(cuedIndex.namedServices('add a :white_check_mark: to her post')).toEqual(['chatto']);
    expect(cuedIndex.namedServices('the meeting moved to 9:40')).toEqual([]);
  });
});
