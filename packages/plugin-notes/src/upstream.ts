import { messageFromBody, retryAfterSeconds, type UpstreamFailure, type UpstreamResponse } from '@portico/core';

/** The Notion-Version Portico is written and tested against (the classic, pre-"data sources" API). */
export const DEFAULT_NOTION_VERSION = '2022-06-28';

/**
 * Every request must pin an API version; Notion refuses requests without one.
 * https://developers.notion.com/reference/versioning
 */
export function notionHeaders(settings: Readonly<Record<string, unknown>>): Record<string, string> {
  const version = typeof settings.notion_version === 'string' && settings.notion_version ? settings.notion_version : DEFAULT_NOTION_VERSION;
  return { 'Notion-Version': version };
}

/**
 * Notion answers errors with `{ object: "error", status, code, message }`; the code (object_not_found,
 * validation_error, restricted_resource…) is the part a caller can act on, so it leads the message.
 * https://developers.notion.com/reference/status-codes
 */
export function inspectNotionResponse(response: UpstreamResponse): UpstreamFailure | undefined {
  if (response.status >= 200 && response.status < 300) return undefined;
  const body = response.body;
  let message: string | undefined;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const error = body as Record<string, unknown>;
    const code = typeof error.code === 'string' ? error.code : undefined;
    const text = typeof error.message === 'string' ? error.message : undefined;
    if (code && text) message = `${code}: ${text}`;
    else message = code ?? text;
  }
  // Proxies in front of Notion can answer with HTML; a short, tag-free excerpt is all that is worth showing.
  message ??= typeof body === 'string' && !body.trimStart().startsWith('<') ? messageFromBody(body) : undefined;
  const failure: UpstreamFailure = { status: response.status, message: message ?? `HTTP ${response.status}` };
  const retryAfter = response.status === 429 ? retryAfterSeconds(response.headers) : undefined;
  if (retryAfter !== undefined) failure.retryAfter = retryAfter;
  return failure;
}
