import { defineVocabulary } from '@portico/core/plugin';

/** Slack's words, as people at a firm use them: what search_methods reads a query with. */
export const slackVocabulary = defineVocabulary({
  names: ['Slack'],
  // A #channel, a DM and an emoji reaction are Slack's alone among the applications a firm connects.
  cues: ['#*', 'slack channel', 'direct message', 'dm', 'emoji', 'thumbs up', 'thumbs-up'],
  synonyms: {
    channel: ['room', 'conversation'],
    message: ['chat', 'post', 'text', 'said', 'announcement', 'tell', 'announce'],
    reaction: ['emoji', 'react', 'thumb', 'reacted', 'checkmark'],
    pin: ['pinned', 'bookmark'],
    thread: ['replies', 'reply'],
  },
  phrases: {
    'thumbs up': 'reaction',
    // "add Omar to #litigation" invites a member.
    '(add|bring|put|pull) [a-z]+ (in)?to #': 'invite',
  },
});
