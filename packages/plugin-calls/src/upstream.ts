import { type Credentials, fillPath, pathTokens, type QueryValue, type UpstreamRequest, upstreamInspector } from '@portico/core/plugin';

export const CALLRAIL_BASE_URL = 'https://api.callrail.com/v3';

/** Params that are never copied to the query string as they are. */
const PAGING = new Set(['page', 'per_page']);

export interface GetOptions {
  /**
   * Page size sent when the caller gives none. CallRail's own default (100) is larger than the gateway's, so
   * paged operations always send page and per_page explicitly. The params hold them as their schema declares them:
   * strings for the paged lists (the catalog's type), numbers for get_sms_thread; both go out as the same text.
   */
  perPage?: number;
  /** Array params sent Rails-style as `name[]=a&name[]=b` (CallRail's array filters such as tags). */
  bracketArrays?: readonly string[];
  /** Query values added to every call. */
  fixedQuery?: Readonly<Record<string, string>>;
}

/**
 * Builds a GET against a CallRail `.json` path. Path tokens come from params; other params go to the query:
 * arrays are comma-joined (CallRail's field selection, `fields=a,b`) unless listed in `bracketArrays`.
 */
export function callrailGet(path: string, options: GetOptions = {}) {
  const inPath = new Set(pathTokens(path));
  const brackets = new Set(options.bracketArrays ?? []);
  return (params: Record<string, unknown>): UpstreamRequest => {
    // assigned, not spread: keys a literal names after spreading a non-empty object are slow on Node 20
    // (docs/performance.md, "got's cache options")
    const query: Record<string, QueryValue> = Object.assign({}, options.fixedQuery);
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || inPath.has(key) || (options.perPage !== undefined && PAGING.has(key))) continue;
      if (Array.isArray(value)) {
        const items = value.map((item) => String(item));
        if (brackets.has(key)) query[`${key}[]`] = items;
        else query[key] = items.flatMap((item) => item.split(',')).join(',');
      } else {
        query[key] = value as string | number | boolean;
      }
    }
    if (options.perPage !== undefined) {
      query.page = String((params.page as string | number | undefined) ?? 1);
      query.per_page = String((params.per_page as string | number | undefined) ?? options.perPage);
    }
    return { method: 'GET', path: fillPath(path, params), ...(Object.keys(query).length > 0 ? { query } : {}) };
  };
}

/**
 * CallRail wants `Authorization: Token token="<key>"`, not Bearer. Operators sometimes paste the whole header
 * value; accept that too rather than sending `Token token="Token token=..."`.
 */
export function authHeaders(credentials: Credentials): Record<string, string> {
  const pasted = /^Token\s+token="?([^"]+)"?$/i.exec(credentials.accessToken.trim());
  const key = pasted?.[1] ?? credentials.accessToken.trim();
  return { authorization: `Token token="${key}"` };
}

/**
 * CallRail reports failures with the HTTP status and a JSON body: `{ "error": "..." }` or `{ "errors": [...] }`
 * (strings, or objects naming a field), Rails' `{ "errors": { "field": [...] } }`, or plain text; core's generic reader
 * understands all of them. It documents no Retry-After on 429; whatever header arrives is passed on.
 */
export const inspect = upstreamInspector({
  defaultMessages: { 401: 'the API key was not accepted', 404: 'not found', 429: 'too many requests' },
  redact,
  // CallRail's refusals of a field name list the valid ones; cut at the default 300 characters, the list would be lost.
  maxLength: 500,
});

/** An error text must never carry a credential, even if an upstream echoes the header it received. */
function redact(message: string): string {
  return message.replace(/token\s*=\s*"?[^"\s,;]+"?/gi, 'token=[redacted]');
}
