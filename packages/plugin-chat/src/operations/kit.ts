import { DEFAULT_LIMIT } from '../schemas.js';

/**
 * Query arguments of a cursor-paged Slack method. The catalog's default page size is always sent because Slack's
 * own default differs; an empty cursor means "first page" and is not sent (Slack rejects it on some methods).
 */
export function pageQuery(params: { limit?: string; cursor?: string }): { limit: string; cursor?: string } {
  return { limit: params.limit ?? DEFAULT_LIMIT, ...(params.cursor ? { cursor: params.cursor } : {}) };
}
