import { defineVocabulary } from '@portico/core/plugin';

/** Slack's words, as people at a firm use them: what search_methods reads a query with. */
export const slackVocabulary = defineVocabulary({
  names: ['Slack'],
  // A #channel, a DM and an emoji reaction are Slack's alone among the applications a firm connects.
  // An @mention is Slack's too ("ping @maria"); an email address ("ann@firm.com") is no mention.
  cues: ['#*', '@*', 'slack channel', 'direct message', 'dm', 'dms', 'emoji', 'thumbs up', 'thumbs-up', 'huddle'],
  synonyms: {
    channel: ['room', 'conversation'],
    message: ['chat', 'post', 'text', 'said', 'announcement', 'tell', 'announce', 'dm', 'ping', 'mention', 'history'],
    reaction: ['emoji', 'react', 'thumb', 'reacted', 'checkmark', 'smiley'],
    pin: ['pinned', 'bookmark'],
    thread: ['replies', 'reply', 'threaded'],
    user: ['member', 'coworker', 'colleague', 'teammate', 'guest', 'profile'],
  },
  phrases: {
    'thumbs up': 'reaction',
    // "add Omar to #litigation" invites a member.
    '(add|bring|put|pull) [a-z]+ (in)?to #': 'invite',
    '(add|bring|put|pull) [a-z]+ (in)?to (the |a |our )?([a-z-]+ )?channel': 'invite',
    // Slack's help pages: "catch up on a channel", what was said in it.
    'catch up on': 'read messages',
    'let (everyone|everybody|the team|people|[a-z]+) know': 'send message',
    "channel( is|'s)? about": 'topic purpose',
    'in (the|a|this) thread': 'thread',
  },
});
