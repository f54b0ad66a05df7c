// How the plugin reaches Acme Tasks: where the API is, what it allows one token, and how its errors read.
import { type UpstreamSettings, upstreamInspector } from '@portico/core/plugin';

/** Acme Tasks answers errors with `{ "error": { "code": "not_found", "message": "…" } }`. */
function acmeMessage(body: unknown): string | undefined {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof error?.message !== 'string') return undefined;
  return typeof error.code === 'string' ? `${error.code}: ${error.message}` : error.message;
}

export const upstream: UpstreamSettings = {
  baseUrl: 'https://api.tasks.example/v1', // operators override it with PORTICO_ACMETASKS_BASE_URL
  // authHeaders is omitted: the token is sent as `Authorization: Bearer <token>`.
  inspect: upstreamInspector({ message: acmeMessage }), // status, message, Retry-After of a 429 or 503,
  limits: { perMinute: 120 }, // what the (fictional) API documents per token; declare only documented limits
};
