import { defineVocabulary } from '@portico/core';

/** Slack's words, as people at a firm use them: what search_methods reads a query with. */
export const slackVocabulary = defineVocabulary({
  names: ['Slack'],
  // A #channel, a DM and an emoji reaction are Slack's alone among the applications a firm connects.
  cues: ['#*', 'slack channel', 'direct message', 'dm', 'emoji', 'thumbs up', 'thumbs-up'],
  phrases: {
    // "add Omar to #litigation" invites a member.
    '(add|bring|put|pull) [a-z]+ (in)?to #': 'invite',
  },
});
