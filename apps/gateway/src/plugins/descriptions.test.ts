import { fileURLToPath } from 'node:url';
import { type Plugin, silentLogger } from '@portico/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, type Described, sentences } from './descriptions.test-support.js';
import { loadPlugins } from './load.js';

// The summaries and descriptions a model chooses an operation by, checked over every operation of every
// plugin as the gateway loads them, plus the plugin template (docs/plugins.md, "Writing summaries and descriptions").

const TEMPLATE = fileURLToPath(new URL('../../../../packages/plugin-template/src/index.ts', import.meta.url));

let all: Described[] = [];
beforeAll(async () => {
  const plugins: Plugin[] = [...(await loadPlugins(undefined, silentLogger)), ...(await loadPlugins([TEMPLATE], silentLogger))];
  all = plugins.flatMap((plugin) =>
    plugin.operations.map((op) => ({
      service: plugin.service,
      name: op.name,
      summary: op.summary,
      description: op.description,
      params: Object.keys(op.params.properties ?? {}),
    })),
  );
});

describe('operation summaries and descriptions, the whole registry', () => {
  it('covers the six first-party plugins and the template', () => {
    const services = new Set(all.map((op) => op.service));
    expect([...services].sort()).toEqual(['acmetasks', 'callrail', 'clio', 'lawmatics', 'notion', 'quickbooks', 'slack']);
  });

  it.each(Object.keys(CHECKS) as Array<keyof typeof CHECKS>)('%s', (check) => {
    expect(CHECKS[check](all)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const op = (summary: string, description: string, params: string[] = []): Described => ({
    service: 's',
    name: summary.toLowerCase().replace(/\W+/g, '_'),
    summary,
    description,
    params,
  });

  it('split sentences but not after e.g. or i.e.', () => {
    expect(sentences('Lists tasks, e.g. calls to return. Paged with page. Done?')).toEqual([
      'Lists tasks, e.g. calls to return.',
      'Paged with page.',
      'Done?',
    ]);
  });

  it('catch the grammar slips and generated phrases the issue found', () => {
    const found = [
      ...CHECKS['a and an are used correctly']([
        op('Create a activity', 'Records a hour of work. Use an user id from list_users, not a SMS number.'),
        op(
          'Send an HTML email to a user',
          'Sends an email to a one-time address, an hour after a URL is opened. It is an unpaid reminder.',
        ),
      ]),
      ...CHECKS['summaries start with a verb, are short, specific and unique']([op('Get one bill', 'x'), op('Bills', 'y')]),
    ];
    expect(found).toEqual([
      's.create_a_activity: "a activity"',
      's.create_a_activity: "a hour"',
      's.create_a_activity: "an user"',
      's.create_a_activity: "a SMS"',
      's.get_one_bill: summary is a generated phrase: "Get one bill"',
      's.bills: summary does not start with an imperative verb: "Bills"',
      's.bills: summary is a generated phrase: "Bills"',
    ]);
  });

  it('let a paging sentence repeat within one plugin, and no other long sentence in more than three operations', () => {
    const paging = 'Pages with page from 1 and per_page up to 100.';
    const template = 'Returns the record exactly as the application sends it.';
    const ops = [1, 2, 3, 4].map((n) => op(`List things ${n}`, `Lists things of kind ${n}. ${paging} ${template}`, ['page']));
    expect(CHECKS['no long sentence is repeated across more than three operations'](ops)).toEqual([
      `"${template.toLowerCase()}" appears in 4 operations (s.list_things_1, s.list_things_2, s.list_things_3, s.list_things_4…)`,
    ]);
    expect(
      CHECKS['operations that page name their paging parameter']([op('List things', 'Lists things. No word on it.', ['cursor'])]),
    ).toEqual(['s.list_things: pages with cursor but its description names none of them']);
  });
});
