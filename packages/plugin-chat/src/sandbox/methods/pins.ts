import {
  type Args,
  findMessage,
  type MethodContext,
  memberChannel,
  type Result,
  SlackError,
  str,
  targetMessage,
  tick,
} from '../web-api.js';
import { messageJson } from '../wire.js';

// https://api.slack.com/methods/pins.add
export function addPin(args: Args, { state }: MethodContext): Result {
  const { target, message } = targetMessage(args, state);
  if (target.pins.some((p) => p.ts === message.ts)) throw new SlackError('already_pinned');
  tick(state);
  target.pins.push({ ts: message.ts, created: state.clock, createdBy: state.actor });
  return { ok: true };
}

// https://api.slack.com/methods/pins.remove
export function removePin(args: Args, { state }: MethodContext): Result {
  const { target, message } = targetMessage(args, state);
  if (!target.pins.some((p) => p.ts === message.ts)) throw new SlackError('not_pinned');
  target.pins = target.pins.filter((p) => p.ts !== message.ts);
  return { ok: true };
}

// https://api.slack.com/methods/pins.list
export function listPins(args: Args, { state, origin }: MethodContext): Result {
  const target = memberChannel(state, str(args, 'channel'));
  const items = [...target.pins]
    .sort((a, b) => b.created - a.created)
    .map((pin) => ({
      type: 'message',
      created: pin.created,
      created_by: pin.createdBy,
      channel: target.id,
      message: messageJson(target, findMessage(target, pin.ts), origin),
    }));
  return { ok: true, items };
}
