import { type EmulatorReply, type EmulatorRequest, isJsonObject, jsonReply } from './emulator-http.js';

/** How long a sandbox waits for the gateway to answer a webhook it sends. */
const DELIVERY_TIMEOUT_MS = 5_000;

/** A webhook as a sandbox sent it: where, its headers and body, and what the receiver answered. */
export interface WebhookDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  answer: unknown;
}

/**
 * Where a sandbox sends its webhooks, and how: the URL given to `deliverTo` (kept across resets: it is the gateway's,
 * not the story's), and a POST with a time limit. The sandbox signs; this only carries.
 */
export class WebhookSender {
  private target: string | undefined;

  constructor(readonly secret: string) {}

  deliverTo(url: string): void {
    this.target = url;
  }

  get configured(): boolean {
    return this.target !== undefined;
  }

  /** The URL a delivery goes to: the one given, else the configured one; undefined when neither is a http(s) URL. */
  urlFor(given: unknown): string | undefined {
    const url = typeof given === 'string' ? given : this.target;
    return url !== undefined && /^https?:\/\//.test(url) ? url : undefined;
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<WebhookDelivery> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const text = await response.text();
    let answer: unknown = text;
    try {
      answer = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { url, headers, body, status: response.status, answer };
  }

  /** Sends to the configured URL, if any, and forgets the outcome: a story that moves does not wait for its webhook. */
  sendInBackground(headers: Record<string, string>, body: string): void {
    if (this.target) this.send(this.target, headers, body).catch(() => {});
  }
}

/** What `POST /__sandbox/emit` answers: the delivery (to replay it) and the receiver's answer, or why nothing was sent. */
export async function emitReply(
  sender: WebhookSender,
  url: unknown,
  headers: Record<string, string>,
  body: string,
): Promise<EmulatorReply> {
  const target = sender.urlFor(url);
  if (!target) return jsonReply(400, { ok: false, error: 'no target: give "url", or start the gateway in sandbox mode' });
  try {
    return jsonReply(200, { ok: true, delivery: await sender.send(target, headers, body) });
  } catch (error) {
    return jsonReply(502, { ok: false, error: `delivery failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/**
 * The body of a `POST /__sandbox/emit`: a JSON object (none: `{}`), with `at`, when given, read as an ISO 8601 time.
 * Either what was asked, `at` in milliseconds (`fallback` when absent), or the 400 to answer.
 */
export function emitSpec<F extends number | undefined>(
  request: EmulatorRequest,
  fallback: F,
): { spec: Record<string, unknown>; at: number | F } | { reply: EmulatorReply } {
  let spec: unknown;
  try {
    spec = request.body.length === 0 ? {} : request.json();
  } catch {
    return { reply: jsonReply(400, { error: 'emit takes a JSON object' }) };
  }
  if (!isJsonObject(spec)) return { reply: jsonReply(400, { error: 'emit takes a JSON object' }) };
  if (spec.at === undefined) return { spec, at: fallback };
  const at = typeof spec.at === 'string' ? Date.parse(spec.at) : Number.NaN;
  if (!Number.isFinite(at)) return { reply: jsonReply(400, { error: '"at" must be an ISO 8601 time' }) };
  return { spec, at };
}
