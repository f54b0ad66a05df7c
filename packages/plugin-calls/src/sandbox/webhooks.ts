import { createHmac, randomBytes } from 'node:crypto';
import {
  type EmulatorReply,
  type EmulatorRequest,
  emitReply,
  emitSpec,
  isJsonObject,
  jsonReply,
  toZoned,
  type WebhookSender,
} from '@portico/core/testing/emulator';
import type { CallRec, SandboxData } from './records.js';
import { callView, type Origin } from './views.js';

/** The webhook signing key of the sandbox's companies: the one to save in the gateway (sandbox mode saves it itself). */
export const SANDBOX_SIGNING_KEY = 'sandbox-callrail-signing-key';

/** CallRail's webhook signature: the base64 HMAC-SHA1 of the raw body with the company's signing key. */
export function callRailSignatureHeaders(key: string, body: string): Record<string, string> {
  return { signature: createHmac('sha1', key).update(body).digest('base64') };
}

const CALL_WEBHOOKS = ['pre_call', 'call_routing_complete', 'post_call', 'call_modified'];

/** A call's webhook body: the call as the API shows it, with the company and record fields webhooks add. */
function callBody(data: SandboxData, origin: Origin, call: CallRec): Record<string, unknown> {
  return { ...callView(data, origin, call).full, resource_id: call.id, company_resource_id: call.company_id, created_at: call.start_time };
}

/** Someone who has never called: a voicemail from them, on the line the most recent caller rang. */
interface NewCaller {
  name: string;
  phone: string;
}

/**
 * A new call in the story, at `at`: a client of the firm calls again (the most recent inbound caller), answered; or,
 * given `caller`, someone calling for the first time leaves a voicemail.
 */
function newCall(data: SandboxData, at: number, caller?: NewCaller): CallRec | undefined {
  const template = [...data.calls]
    .filter((c) => c.direction === 'inbound')
    .sort((a, b) => Date.parse(b.start_time) - Date.parse(a.start_time))[0];
  if (!template) return undefined;
  const zone = data.companies.find((c) => c.id === template.company_id)?.time_zone;
  const call: CallRec = {
    ...template,
    id: `CAL${randomBytes(16).toString('hex')}`,
    start_time: toZoned(at, zone ? { zone } : {}),
    answer_status: 'answered',
    duration: 94,
    first_call: false,
    tag_ids: [],
    note: null,
    value: null,
    ...(caller
      ? {
          customer_name: caller.name,
          customer_phone_number: caller.phone,
          answer_status: 'voicemail' as const,
          duration: 48,
          first_call: true,
          lead_status: null as CallRec['lead_status'],
          previously_good_lead: false,
          agent_user_id: null,
        }
      : {}),
  };
  data.calls.push(call);
  return call;
}

/**
 * `POST /__sandbox/emit`: CallRail sends a call webhook. `{ "webhook": "post_call" }` (the default; also `pre_call`,
 * `call_routing_complete`, `call_modified`) about `call_id`, or, without one, about a new call that starts at `at`
 * (default: now, minus its length): a client calls again — or, with `caller` (`{ "name", "phone" }`), someone new
 * leaves a voicemail — and the call is in the API's lists from then on. `url`
 * overrides where it goes and `key` the signing key (to try a forged delivery). The delivery URL is the target with
 * `?webhook=<name>`, as an operator configures one URL per webhook in CallRail.
 */
export async function emit(request: EmulatorRequest, data: SandboxData, origin: Origin, sender: WebhookSender): Promise<EmulatorReply> {
  const asked = emitSpec(request, Date.now() - 94_000);
  if ('reply' in asked) return asked.reply;
  const { spec, at } = asked;
  const webhook = spec.webhook ?? 'post_call';
  if (typeof webhook !== 'string' || !CALL_WEBHOOKS.includes(webhook)) {
    return jsonReply(400, { error: `webhook must be one of ${CALL_WEBHOOKS.join(', ')}` });
  }
  const caller = spec.caller;
  if (
    caller !== undefined &&
    !(
      isJsonObject(caller) &&
      typeof caller.name === 'string' &&
      caller.name.trim() &&
      typeof caller.phone === 'string' &&
      /^\+\d{8,15}$/.test(caller.phone)
    )
  ) {
    return jsonReply(400, { error: '"caller" must be { "name", "phone": "+E.164" }' });
  }
  const call =
    typeof spec.call_id === 'string' ? data.calls.find((c) => c.id === spec.call_id) : newCall(data, at, caller as NewCaller | undefined);
  if (!call) return jsonReply(404, { error: 'Not Found' });
  const body = JSON.stringify(callBody(data, origin, call));
  const key = typeof spec.key === 'string' ? spec.key : sender.secret;
  const target = sender.urlFor(spec.url);
  const url = target && `${target}${target.includes('?') ? '&' : '?'}webhook=${webhook}`;
  return emitReply(sender, url, callRailSignatureHeaders(key, body), body);
}
