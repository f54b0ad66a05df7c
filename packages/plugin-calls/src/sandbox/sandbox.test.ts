import type { GatewayError } from '@portico/core/plugin';
import { FIRM_CALLS, type Principal, useSandbox } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { callrailPlugin } from '../index.js';
import { CALL_FIELDS } from '../schemas.js';
import { IDS } from './seed/ids.js';

const SERVICE = 'callrail';
const ACC = IDS.harbor;
const principal: Principal = { keyId: null, workspaceId: 'default', scopes: { admin: true, services: '*', readOnly: false } };

interface Paged {
  page: number;
  per_page: number;
  total_pages: number;
  total_records: number;
  [key: string]: unknown;
}
interface Summary {
  start_date: string;
  end_date: string;
  time_zone: string;
  total_results: { total_calls: number; answered_calls: number; missed_calls: number; leads: number; total_forms: number };
  grouped_by: string | null;
  grouped_results: Array<{ key: string | null } & Record<string, number>>;
}
type Call = Record<string, unknown> & { id: string };

// The assertions below name days of the calendar the data was written on: the clock is pinned to it.
const harness = useSandbox(callrailPlugin, { today: '2025-06-15' });

async function call<T = Record<string, unknown>>(operation: string, params: Record<string, unknown> = {}): Promise<T> {
  return (await harness.engine.invoke({ principal, protocol: 'rest', service: SERVICE, operation, params })).body as T;
}

async function failure(operation: string, params: Record<string, unknown>): Promise<GatewayError> {
  return harness.failure(operation, params);
}

describe('CallRail sandbox through the gateway pipeline', () => {
  it('lists the two seeded accounts and filters them', async () => {
    const all = await call<Paged>('list_accounts', { sort: 'name', order: 'asc' });
    expect(all.total_records).toBe(2);
    expect((all.accounts as Array<{ name: string }>).map((a) => a.name)).toEqual(['Harlow & Pike Estate Planning', 'Harlow & Pike LLP']);
    const hipaa = await call<Paged>('list_accounts', { hipaa_account: true, fields: ['numeric_id'] });
    expect(hipaa.accounts).toEqual([
      { id: ACC, name: 'Harlow & Pike LLP', outbound_recording_enabled: true, hipaa_account: true, numeric_id: 266101549 },
    ]);
  });

  it('answers every operation’s documented example (so describe_method examples work against the sandbox)', async () => {
    for (const operation of callrailPlugin.operations) {
      const body = await call(operation.name, operation.example as Record<string, unknown>);
      expect(body, operation.name).toBeTypeOf('object');
    }
  });

  it('pages through calls: every call once, page sizes as asked, the gateway default of 25', async () => {
    const first = await call<Paged>('list_calls', { account_id: ACC });
    expect(first.per_page).toBe(25);
    expect((first.calls as Call[]).length).toBe(25);

    const seen: string[] = [];
    let page = 1;
    let pages = 0;
    do {
      // REST query strings arrive as strings: the pipeline coerces them to the declared integers.
      const body = (
        await harness.engine.invoke({
          principal,
          protocol: 'rest',
          service: SERVICE,
          operation: 'list_calls',
          params: { account_id: ACC },
          stringParams: { page: String(page), per_page: '20' },
        })
      ).body as Paged;
      pages = body.total_pages;
      expect(body.page).toBe(page);
      seen.push(...(body.calls as Call[]).map((c) => c.id));
      page += 1;
    } while (page <= pages);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(48);
    expect(new Set(seen).size).toBe(48);
    expect(seen).toContain(IDS.firstCall);
    // newest first: this morning's voicemail from the story's new caller
    expect((first.calls as Call[])[0]).toMatchObject({ customer_name: FIRM_CALLS[0]?.who, voicemail: true });
  });

  it('reads REST query strings the CallRail way: fields=a,b and tags[]=id', async () => {
    const body = (
      await harness.engine.invoke({
        principal,
        protocol: 'rest',
        service: SERVICE,
        operation: 'list_calls',
        params: { account_id: ACC },
        stringParams: { fields: 'source,tags', 'tags[]': ['4021993', '4021995'], per_page: '250' },
      })
    ).body as Paged;
    const calls = body.calls as Array<{ source: string; tags: Array<{ name: string }> }>;
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length).toBeLessThan(48);
    for (const c of calls) {
      expect(typeof c.source).toBe('string');
      expect(c.tags.some((t) => t.name === 'New Client Inquiry' || t.name === 'Court Date Soon')).toBe(true);
    }
  });

  it('filters calls by direction, answer status, lead status, company, period and search', async () => {
    const all = (await call<Paged>('list_calls', { account_id: ACC, per_page: 250, fields: ['lead_status', 'company_id', 'source'] }))
      .calls as Call[];
    const count = async (params: Record<string, unknown>) =>
      (await call<Paged>('list_calls', { account_id: ACC, ...params })).total_records;

    const outbound = all.filter((c) => c.direction === 'outbound').length;
    // each filter below must have something to find, or matching counts would prove nothing
    for (const n of [
      outbound,
      all.filter((c) => c.voicemail === true).length,
      all.filter((c) => c.lead_status === null).length,
      all.filter((c) => c.company_id === IDS.westside).length,
    ]) {
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(all.length);
    }
    expect(await count({ direction: 'outbound' })).toBe(outbound);
    expect(await count({ direction: 'inbound' })).toBe(all.length - outbound);
    expect(await count({ answer_status: 'voicemail' })).toBe(all.filter((c) => c.voicemail === true).length);
    expect(await count({ lead_status: 'good_lead' })).toBe(all.filter((c) => c.lead_status === 'good_lead').length);
    expect(await count({ lead_status: 'not_scored' })).toBe(all.filter((c) => c.lead_status === null).length);
    expect(await count({ company_id: IDS.westside })).toBe(all.filter((c) => c.company_id === IDS.westside).length);
    expect(await count({ date_range: 'today' })).toBe(all.filter((c) => String(c.start_time).startsWith('2025-06-15')).length);
    expect(await count({ start_date: '2025-06-01', end_date: '2025-06-15' })).toBe(
      all.filter((c) => String(c.start_time) >= '2025-06-01').length,
    );
    const facebook = await call<Paged>('list_calls', { account_id: ACC, search: 'facebook', fields: ['source'], per_page: 250 });
    expect(facebook.total_records).toBe(all.filter((c) => c.source === 'Facebook').length);
    expect((facebook.calls as Call[]).every((c) => c.source === 'Facebook')).toBe(true);
  });

  it('summarizes calls by source and by campaign with totals that add up to the matching calls', async () => {
    const period = { date_range: 'last_30_days' };
    const matching = (await call<Paged>('list_calls', { account_id: ACC, ...period })).total_records;
    expect(matching).toBeGreaterThan(5);

    const fields = 'total_calls,answered_calls,missed_calls,leads';
    const bySource = await call<Summary>('summarize_call_data', { account_id: ACC, ...period, group_by: 'source', fields });
    const byCampaign = await call<Summary>('summarize_call_data', { account_id: ACC, ...period, group_by: 'campaign', fields });
    for (const summary of [bySource, byCampaign]) {
      expect(summary.total_results.total_calls).toBe(matching);
      expect(summary.grouped_results.reduce((sum, g) => sum + (g.total_calls ?? 0), 0)).toBe(matching);
      expect(summary.grouped_results.reduce((sum, g) => sum + (g.leads ?? 0), 0)).toBe(summary.total_results.leads);
      expect(summary.total_results.answered_calls + summary.total_results.missed_calls).toBe(matching);
      expect(summary.start_date).toBe('2025-05-17T00:00:00.000-07:00');
      expect(summary.time_zone).toBe('America/Los_Angeles');
    }
    expect(bySource.grouped_by).toBe('source');
    expect(bySource.grouped_results.map((g) => g.key).sort()).toEqual(['Direct', 'Facebook', 'Google Ads', 'Organic']);
    expect(byCampaign.grouped_results.map((g) => g.key)).toContain('Wrongful Termination - Search');

    const googleCalls = (await call<Paged>('list_calls', { account_id: ACC, ...period, search: 'Google Ads' })).total_records;
    expect(bySource.grouped_results.find((g) => g.key === 'Google Ads')?.total_calls).toBe(googleCalls);

    const byCompany = await call<Summary>('summarize_call_data', { account_id: ACC, ...period, group_by: 'company' });
    const westside = (await call<Paged>('list_calls', { account_id: ACC, ...period, company_id: IDS.westside })).total_records;
    expect(byCompany.grouped_results.find((g) => g.key === 'Harlow & Pike - Oakland')?.total_calls).toBe(westside);
  });

  it('builds time series per week and per day that add up to the same total', async () => {
    const params = { account_id: ACC, start_date: '2025-05-01', end_date: '2025-05-31' };
    const matching = (await call<Paged>('list_calls', params)).total_records;
    const weekly = await call<{ data: Array<{ date: string; total_calls: number }>; total_results: { total_calls: number } }>(
      'summarize_call_data_by_time_series',
      { ...params, interval: 'week' },
    );
    const daily = await call<{ data: Array<{ date: string; total_calls: number }> }>('summarize_call_data_by_time_series', {
      ...params,
      interval: 'day',
    });
    expect(weekly.total_results.total_calls).toBe(matching);
    expect(weekly.data.reduce((s, d) => s + d.total_calls, 0)).toBe(matching);
    expect(daily.data).toHaveLength(31);
    expect(daily.data[0]?.date).toBe('2025-05-01');
    expect(daily.data.reduce((s, d) => s + d.total_calls, 0)).toBe(matching);
  });

  it('summarizes form submissions by source', async () => {
    const forms = (await call<Paged>('list_form_submissions', { account_id: ACC })).total_records;
    const summary = await call<Summary>('summarize_form_data', { account_id: ACC, group_by: 'source', fields: 'total_forms,leads' });
    expect(forms).toBe(14);
    expect(summary.total_results.total_forms).toBe(forms);
    expect(summary.grouped_results.reduce((s, g) => s + (g.total_forms ?? 0), 0)).toBe(forms);
  });

  it('annotates a call with PATCH (a PUT upstream) and the change sticks', async () => {
    const previouslyGood = async () =>
      (await call<Summary>('summarize_call_data', { account_id: ACC, lead_status: 'previously_marked_good_lead' })).total_results
        .total_calls;
    const previouslyBefore = await previouslyGood();
    const before = await call<Call>('get_call', { account_id: ACC, call_id: IDS.firstCall, fields: ['tags', 'note', 'lead_status'] });
    expect(before.tags).toEqual([{ name: 'New Client Inquiry', color: 'green1' }]);

    const updated = await call<Call>('update_call', {
      account_id: ACC,
      call_id: IDS.firstCall,
      note: 'Booked a custody consultation for June 20',
      lead_status: 'not_a_lead',
      tags: ['Court Date Soon', 'Follow Up'],
      append_tags: true,
    });
    expect(updated.note).toBe('Booked a custody consultation for June 20');
    expect((updated.tags as Array<{ name: string }>).map((t) => t.name)).toEqual(['New Client Inquiry', 'Court Date Soon', 'Follow Up']);

    const after = await call<Call>('get_call', { account_id: ACC, call_id: IDS.firstCall, fields: ['lead_status', 'note'] });
    expect(after.lead_status).toBe('not_a_lead');
    expect(after.note).toBe('Booked a custody consultation for June 20');
    // the unknown tag name created an account tag
    const tags = await call<Paged>('get_tags', { account_id: ACC });
    expect((tags.tags as Array<{ name: string }>).map((t) => t.name)).toContain('Follow Up');
    // a call that was a good lead and is no longer counts as previously marked
    expect(await previouslyGood()).toBe(previouslyBefore + 1);

    // POST /__sandbox/reset restores the seeded data
    await harness.reset();
    const restored = await call<Call>('get_call', { account_id: ACC, call_id: IDS.firstCall, fields: ['note', 'lead_status'] });
    expect(restored).toMatchObject({ note: before.note, lead_status: before.lead_status });
    expect(await previouslyGood()).toBe(previouslyBefore);
  });

  it('serves recordings and page views of a call', async () => {
    const recording = await call<{ url: string }>('get_call_recording', { account_id: ACC, call_id: IDS.firstCall });
    const audio = await fetch(recording.url);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');

    const views = await call<Paged>('get_page_views_for_a_call', { account_id: ACC, call_id: IDS.firstCall });
    expect(views.total_records).toBeGreaterThan(0);
    expect((views.page_views as Array<{ url: string }>)[0]?.url).toMatch(/^https:\/\/www\.harlowpike\.example\//);
  });

  it('returns an SMS thread’s messages under the key tags, with delivery errors on request', async () => {
    const thread = await call<Paged>('get_sms_thread', { account_id: ACC, thread_id: IDS.firstThread, with_msg_errors: true });
    const messages = thread.tags as Array<{ content: string; status: string; error?: string | null }>;
    expect(thread.total_records).toBe(6);
    expect(thread.per_page).toBe(100);
    expect(messages[0]?.content).toContain('openings this Saturday');
    expect(messages.filter((m) => m.status === 'failed').map((m) => m.error)).toEqual([
      'Carrier rejected the message (30007: filtered as spam)',
    ]);
    const paged = await call<Paged>('get_sms_thread', { account_id: ACC, thread_id: IDS.firstThread, page: 2, per_page: 4 });
    expect((paged.tags as unknown[]).length).toBe(2);
    expect((paged.tags as Array<Record<string, unknown>>)[0]).not.toHaveProperty('error');
  });

  it('filters SMS threads, summary emails, tags and trackers', async () => {
    const threads = await call<Paged>('list_sms_threads', { account_id: ACC, search: 'Court Date Soon' });
    expect((threads.sms_threads as Array<{ customer_name: string }>).map((t) => t.customer_name)).toEqual(['Eleanor Vance']);
    const emails = await call<Paged>('list_summary_email_subscriptions', { account_id: ACC, frequency: 'daily,monthly' });
    expect((emails.summary_emails as Array<{ frequency: string }>).map((e) => e.frequency).sort()).toEqual(['daily', 'monthly']);
    const companyTags = await call<Paged>('get_tags', { account_id: ACC, tag_level: 'company', status: 'enabled' });
    expect((companyTags.tags as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(['Billing Question', 'Court Date Soon']);
    const disabled = await call<Paged>('list_trackers', { account_id: ACC, status: 'disabled' });
    expect((disabled.trackers as Array<{ name: string }>).map((t) => t.name)).toEqual(['Estate Planning Seminar Mailer']);
  });

  it('maps an unknown record to not_found', async () => {
    expect((await failure('get_call', { account_id: ACC, call_id: 'CAL00000000000000000000000000000000' })).code).toBe('not_found');
    expect((await failure('get_account', { account_id: 'ACC_missing' })).code).toBe('not_found');
    // a missed call has no recording
    const missed = (await call<Paged>('list_calls', { account_id: ACC, answer_status: 'missed', per_page: 1 })).calls as Call[];
    expect((await failure('get_call_recording', { account_id: ACC, call_id: (missed[0] as Call).id })).code).toBe('not_found');
  });

  it('maps CallRail validation errors to bad_request with CallRail’s reason', async () => {
    const retention = await failure('list_calls', { account_id: ACC, start_date: '2023-01-01', end_date: '2023-01-31' });
    expect(retention.code).toBe('bad_request');
    expect(retention.message).toContain('retention window');
    const field = await failure('get_call', { account_id: ACC, call_id: IDS.firstCall, fields: ['favourite_color'] });
    expect(field.code).toBe('bad_request');
    expect(field.message).toContain('favourite_color');
    // the refusal names the fields that exist, so the next call can be right
    expect(field.message).toContain(`Valid fields: ${CALL_FIELDS.join(', ')}`);
  });

  it('accepts every field the call operations document, on one call and on the list', async () => {
    const documented = callrailPlugin.operations.find((op) => op.name === 'get_call')?.description ?? '';
    expect(documented).toContain('"transcription"');
    const one = await call<Call>('get_call', { account_id: ACC, call_id: IDS.firstCall, fields: [...CALL_FIELDS] });
    for (const field of CALL_FIELDS) expect(one, field).toHaveProperty(field);
    const page = await call<Paged>('list_calls', { account_id: ACC, fields: [CALL_FIELDS.join(',')], per_page: '250' });
    const calls = page.calls as Call[];
    for (const c of calls) for (const field of CALL_FIELDS) expect(c, field).toHaveProperty(field);
    // a recorded call of the firm has a transcription that names its caller; a missed call has none
    const recorded = calls.find((c) => c.recording !== null && c.customer_name !== null) as Call;
    expect(recorded.transcription).toEqual(expect.stringContaining(`this is ${recorded.customer_name}`));
    expect(calls.find((c) => c.recording === null)?.transcription).toBeNull();
  });

  it('maps a wrong API key to upstream_unauthorized', async () => {
    await harness.engine.connectToken('default', SERVICE, 'not-the-sandbox-key');
    try {
      const error = await failure('list_accounts', {});
      expect(error.code).toBe('upstream_unauthorized');
      expect(error.status).toBe(502);
      expect(error.message).toContain('HTTP Token: Access denied.');
      expect(error.message).not.toContain('not-the-sandbox-key');
    } finally {
      await harness.engine.connectToken('default', SERVICE, harness.sandbox.token);
    }
    expect((await call<Paged>('list_accounts')).total_records).toBe(2);
  });

  it('maps 429 to rate_limited and passes Retry-After on', async () => {
    await harness.failNext({ status: 429, retry_after: 1 });
    const error = await failure('list_companies', { account_id: ACC });
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfter).toBe(1);
    // only the next request failed
    expect((await call<Paged>('list_companies', { account_id: ACC })).total_records).toBe(2);
  });

  it('maps a CallRail outage to upstream_error', async () => {
    await harness.failNext({ status: 503, message: 'Service Unavailable' });
    const error = await failure('list_users', { account_id: ACC });
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain('503');
  });

  it('refuses bad input before CallRail sees it', async () => {
    await harness.failNext({ status: 500 });
    const error = await failure('list_calls', { account_id: ACC, direction: 'sideways' });
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('params.direction: must be one of "inbound", "outbound"');
    // the pending failure was not consumed, so no request reached the sandbox; clear it
    expect((await failure('list_accounts', {})).code).toBe('upstream_error');
  });
});
