import { DEFAULT_LIMIT } from '../schemas.js';

/**
 * Query arguments of a cursor-paged Slack method. The catalog's default page size is always sent because Slack's
 * own default differs; an empty cursor means "first page" and is not sent (Slack rejects it on some methods).
 */
export function pageQuery(params: { limit?: string; cursor?: string }): { limit: string; cursor?: string } {
  return { limit: params.limit ?? DEFAULT_LIMIT, ...(params.cursor ? { cursor: params.cursor } : {}) };
}

type FormValue = string | number | boolean | undefined;

/**
 * A Slack method called with its arguments as an `application/x-www-form-urlencoded` POST body: the one body format
 * Slack reads on every Web API method (https://docs.slack.dev/apis/web-api — JSON is read by most write methods
 * only), and the one its published spec lists. Arguments without a value are left out.
 */
export function formPost(path: string) {
  return (params: Readonly<Record<string, FormValue>>) => ({ method: 'POST' as const, path, form: { ...params } });
}
