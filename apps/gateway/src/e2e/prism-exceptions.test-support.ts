/**
 * Where the Prism check (prism.e2e.test.ts) and an upstream's saved spec disagree, each with its reason.
 *
 * Exceptions, per operation:
 * - `absent`: the saved spec has no such operation (newer than the spec, or left out of a reduced spec). It cannot be
 *   checked against that spec: not counted as passed, and outside the spec's operations the pass rate is taken over.
 * - `misjudged`: the saved spec (or Prism itself) is wrong about this operation, for a reason given from the upstream's
 *   own documentation. Not checkable either; `complaints` are the only things Prism may say about the request — any
 *   other complaint fails the check, so the rest of the request is still held to the spec.
 * - `refused`: our request is not what the spec accepts and that is not settled: one of the spec's operations, a miss.
 *
 * Adjustments: a documented difference between how the real upstream takes a request and how the saved spec describes
 * it, applied by the check's proxy before Prism sees the request (and only when the request already carries what the
 * real upstream needs), so that everything else about those requests is checked. Each one must be used by the run.
 */
export interface PrismException {
  kind: 'absent' | 'misjudged' | 'refused';
  reason: string;
  /** For `misjudged`: every complaint Prism makes about the request must match one of these. */
  complaints?: RegExp[];
}

/** A request on its way to Prism: its method, path with query string, and headers (lower-case names). */
export interface ForwardedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface PrismAdjustment {
  reason: string;
  /** Changes the request in place; returns whether it applied. */
  apply(request: ForwardedRequest): boolean;
}

const newerThanClioSpec: PrismException = {
  kind: 'absent',
  reason: 'one of the five Clio operations newer than the saved document (the catalog settles its path); Prism has no route for it',
};

const notionReducedSpec = (what: string, complaints: RegExp[]): PrismException => ({
  kind: 'misjudged',
  reason:
    `the saved Notion spec is the reduced one Notion's MCP server ships, whose request schemas allow ${what}; ` +
    "Notion's API reference (Notion-Version 2022-06-28) takes what the example sends",
  complaints,
});

export const PRISM_EXCEPTIONS: Record<string, Record<string, PrismException>> = {
  clio: {
    list_clio_file_submissions: newerThanClioSpec,
    get_clio_file_submission: newerThanClioSpec,
    create_bank_transaction: newerThanClioSpec,
    update_bank_transaction: newerThanClioSpec,
    delete_bank_transaction: newerThanClioSpec,
    preview_matter_docket: {
      kind: 'misjudged',
      reason:
        'Prism 5.14 cannot match required query parameters with brackets in their names (jurisdiction[id], service_type[id], ' +
        'trigger[id]): it reports them missing (by their percent-encoded names) however they are sent. The spec also types ' +
        'start_date date-time where its own description says an ISO-8601 date, which the plugin sends (Prism names that on ' +
        'some runs and not others)',
      complaints: [
        /query must have required property '(jurisdiction|service_type|trigger)(\[|%5b)id(\]|%5d)'/i,
        /query parameter start_date must match format "date-time"/,
      ],
    },
  },
  lawmatics: {},
  notion: {
    create_page: notionReducedSpec('a page parent only, a title as the only property and an icon as a string', [
      /body\.parent .*must have required property 'page_id'/,
      /body\.properties .*must have required property 'title'/,
      /body\.properties .*must NOT have additional properties/,
      /body\.icon .*must be string/,
    ]),
    update_page: notionReducedSpec('a title as the only property', [
      /body\.properties .*must have required property 'title'/,
      /body\.properties .*must NOT have additional properties/,
    ]),
    create_database: notionReducedSpec('title properties only', [
      /body\.properties\.\w+ .*must have required property 'title'/,
      /body\.properties\.\w+ .*must NOT have additional properties/,
      /body\.properties\.\w+ .*must match exactly one schema in oneOf/,
    ]),
    append_block_children: notionReducedSpec('paragraph and bulleted list item blocks only, without "object"', [
      /body\.children\.\d+ .*must NOT have additional properties/,
      /body\.children\.\d+\.type .*must be equal to one of the allowed values/,
    ]),
  },
  slack: {
    upload_file: {
      kind: 'absent',
      reason: 'files.getUploadURLExternal (Slack’s upload flow since 2024) is newer than the saved Slack spec, which has no route for it',
    },
  },
  callrail: {},
};

/**
 * The CallRail operations the saved spec leaves out: it is a community-written partial OpenAPI document with 8 of
 * CallRail's operations (accounts, calls; its eighth, placing an outbound call, is no operation of the plugin), and
 * CallRail publishes none of its own. The plugin's other operations are absent from it, and Prism must find no route
 * for them.
 */
const CALLRAIL_IN_SPEC = new Set([
  'list_accounts',
  'get_account',
  'list_calls',
  'get_call',
  'update_call',
  'summarize_call_data',
  'summarize_call_data_by_time_series',
]);
export function callrailExceptions(operations: string[]): Record<string, PrismException> {
  const absent: PrismException = {
    kind: 'absent',
    reason: 'not in the saved CallRail spec, a partial community document of 8 operations (accounts, calls): not checkable against it',
  };
  return Object.fromEntries(operations.filter((name) => !CALLRAIL_IN_SPEC.has(name)).map((name) => [name, absent]));
}

const bearer = (request: ForwardedRequest) => /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];

export const PRISM_ADJUSTMENTS: Record<string, PrismAdjustment[]> = {
  slack: [
    {
      reason:
        'the saved Slack spec (2021) requires the token as a `token` parameter (a header on POST methods, the query string on ' +
        'GET ones); Slack takes it in Authorization: Bearer, which it prefers, and refuses a query-string token from apps ' +
        'created since 24 February 2021 (docs.slack.dev/changelog/2020-11-no-more-tokens-in-querystrings-for-newly-created-apps). ' +
        'The plugin sends Bearer; the proxy shows that token to Prism as the spec’s `token` parameter',
      apply(request) {
        const token = bearer(request);
        if (!token) return false;
        request.headers.token = token;
        if (request.method === 'GET') request.path += `${request.path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
        return true;
      },
    },
  ],
  lawmatics: [
    {
      reason:
        'GET /v1/forms/{uuid} is anonymous in the saved Lawmatics spec (security [{}]: credentials optional), and Prism 5.14 ' +
        'then refuses any request that carries them; the plugin sends its Bearer token as on every Lawmatics call, and the ' +
        'proxy withholds it from Prism on this one operation',
      apply(request) {
        if (request.method !== 'GET' || !/^\/v1\/forms\/[^/?]+(\?|$)/.test(request.path) || !bearer(request)) return false;
        delete request.headers.authorization;
        return true;
      },
    },
  ],
};
