import { upstreamInspector } from '@portico/core/plugin';

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
function notionMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const error = body as Record<string, unknown>;
  const code = typeof error.code === 'string' && error.code ? error.code : undefined;
  const text = typeof error.message === 'string' && error.message ? error.message : undefined;
  return code && text ? `${code}: ${text}` : (code ?? text);
}

/**
 * The plugin's `inspect`: core's reader with Notion's message first. Anything else (a proxy's text, never its HTML)
 * is read by the generic reader; Notion documents Retry-After on 429 only. Validation messages list alternatives,
 * so up to 500 characters are kept.
 */
export const inspectNotionResponse = upstreamInspector({ message: notionMessage, retryAfterOn: [429], maxLength: 500 });
