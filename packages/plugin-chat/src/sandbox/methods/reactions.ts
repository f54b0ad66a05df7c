// The reactions family: emoji on messages.
import { type Args, type MethodContext, type Result, required, SlackError, targetMessage } from '../web-api.js';
import { messageJson } from '../wire.js';

const EMOJI = /^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/;

// https://api.slack.com/methods/reactions.add
export function addReaction(args: Args, { state }: MethodContext): Result {
  const { target, message } = targetMessage(args, state);
  if (target.isArchived) throw new SlackError('is_archived');
  const name = required(args, 'name');
  if (!EMOJI.test(name)) throw new SlackError('invalid_name');
  let reaction = message.reactions.find((r) => r.name === name);
  if (reaction?.users.includes(state.actor)) throw new SlackError('already_reacted');
  if (!reaction) {
    reaction = { name, users: [] };
    message.reactions.push(reaction);
  }
  reaction.users.push(state.actor);
  return { ok: true };
}

// https://api.slack.com/methods/reactions.get
export function getReactions(args: Args, { state, origin }: MethodContext): Result {
  const { target, message } = targetMessage(args, state);
  return { ok: true, type: 'message', channel: target.id, message: messageJson(target, message, origin) };
}

// https://api.slack.com/methods/reactions.remove
export function removeReaction(args: Args, { state }: MethodContext): Result {
  const { message } = targetMessage(args, state);
  const name = required(args, 'name');
  const reaction = message.reactions.find((r) => r.name === name);
  if (!reaction?.users.includes(state.actor)) throw new SlackError('no_reaction');
  reaction.users = reaction.users.filter((u) => u !== state.actor);
  if (reaction.users.length === 0) message.reactions = message.reactions.filter((r) => r !== reaction);
  return { ok: true };
}
