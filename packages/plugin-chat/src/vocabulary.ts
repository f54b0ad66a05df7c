import { defineVocabulary } from '@portico/core/plugin';

/** Slack's words, as people at a firm use them: what search_methods reads a query with. */
export const slackVocabulary = defineVocabulary({
  names: ['Slack'],
  // A #channel, a DM and an emoji reaction are Slack's alone among the applications a firm connects.
  // An @mention is Slack's too ("ping @maria"); an email address ("ann@firm.com") is no mention.
  cues: [
    '#*',
    '@*',
    'slack channel',
    'private channel',
    'public channel',
    'channel topic',
    'direct message',
    'dm',
    'dms',
    // "Priya DMed me", "DM'd", "DMing": the verb of a direct message.
    'dmed',
    "dm'd",
    'dming',
    // Slack's emoji names between colons (":eyes:", ":white_check_mark:") are reactions.
    ':*:',
    'emoji',
    'thumbs up',
    'thumbs-up',
    'huddle',
    'emoji reaction',
    'pinned message',
    'unpin',
    'member directory',
    'thread replies',
    'thread reply',
    // Replies in a thread are Slack's; a text conversation with a caller is an "SMS thread".
    'in * thread',
    'replies to * message',
    'replies to * post',
  ],
  // "the billing channel": the words before "channel" are its name.
  named: ['channel', 'room', 'chat'],
  synonyms: {
    channel: ['room', 'conversation'],
    message: [
      'chat',
      'post',
      'text',
      'said',
      'say',
      'says',
      'wrote',
      'announcement',
      'tell',
      'announce',
      'dm',
      'dmed',
      'dming',
      'ping',
      'mention',
      'history',
    ],
    reaction: ['emoji', 'react', 'thumb', 'reacted', 'checkmark', 'smiley'],
    // Slack's help pages: who created a channel and when is in its details.
    info: ['creator'],
    pin: ['pinned', 'bookmark'],
    thread: ['replies', 'reply', 'threaded'],
    user: ['member', 'coworker', 'colleague', 'teammate', 'guest', 'profile'],
  },
  phrases: {
    'thumbs up': 'reaction',
    // An emoji by its Slack name between colons (":eyes:", ":tada:") is a reaction.
    '(?<=:)[a-z0-9][a-z0-9_+-]*(?=:)': 'emoji reaction',
    // "who made it", "whose idea was it": a channel's creator is in its details.
    '(who|whose idea) (was |were )?([a-z]+ )?(created|made|started|set up|opened)|whose idea': 'creator',
    // Slack's help pages: catching up on what was said while away.
    '(what|anything) (did |have |has )?(i|we|you) (miss|missed)': 'read messages',
    // A file attached, uploaded or dropped into a #channel is shared there.
    '(attach|upload|drop) (a |an |the |this |that |our |my )?([a-z0-9-]+ ){0,4}(to|in|into) (the )?#': 'upload file',
    // A member's status says what they are doing ("out sick", "in a meeting"): their profile.
    'status (still |currently |now )?(say|says|saying|read|reads)': 'user profile',
    // "add Omar to #litigation" invites a member.
    // "add Jane and Luis to #trial-prep": one person or several.
    '(add|bring|put|pull) ([a-z-]+,? (and )?){1,4}(in)?to #': 'invite',
    '(add|bring|put|pull) ([a-z-]+,? (and )?){1,4}(in)?to (the |a |our )?([a-z-]+ ){0,2}(channel|room)': 'invite',
    // Slack's help pages: "catch up on a channel", what was said in it.
    'catch (me |us )?up on': 'read messages',
    'let (#?[a-z0-9_-]+ ){1,3}know': 'send message',
    // "what's going on in #trial-team", "what's new in #intake": what was said there lately.
    '(going on|happening|new|been said|the latest) in (the )?#': 'read messages',
    // Slack's help pages: a channel's details say who created it and when.
    '(when|who) (was |were )?([a-z]+ )?(created|made|started|set up) #|#[a-z0-9_-]+ (was |were )?(created|made|started|set up)':
      'channel info',
    // "notify the channel that…", "remind the team about…", "write to #general": a message to a channel.
    '(notify|tell|inform|remind|alert|warn|update) (the |our |a |this |that |everyone in )?([a-z-]+ )?(channel|team|group|everyone|everybody|#)':
      'send message',
    '(write|say|post|reply|respond|announce) ([a-z-]+ ){0,3}(in|to|on|into) (the )?#': 'send message',
    // "what did people say in #intake", "what was posted in #billing": a question about what was said reads it.
    '(what|anything) (did|does|do|has|have|was|were|is) ([a-z-]+ ){0,3}(say|said|saying|post|posted|write|wrote|written|share|shared)':
      'read messages',
    // Slack's help pages: a channel's message history, its details and description (topic and purpose).
    '(message|chat|channel|conversation) history': 'read messages',
    'channel (details|description|info|topic|purpose)': 'topic purpose info',
    '(description|details|topic|purpose) of (the |a |this |our )?([a-z-]+ )?channel': 'topic purpose info',
    // Slack's member ids (U04ABC123) name a member.
    '\\bu[0-9][0-9a-z]{6,10}': 'user info profile',
    // A member's profile fields.
    '(display name|full name|local time|time zone|job title|what time is it (for|where))': 'profile',
    "channel( is|'s)? about": 'topic purpose',
    'in (the|a|this) thread': 'thread',
    // Slack's help pages: the replies to a message sit under it, in its thread.
    "(replies|responses|answers) (under|to|on|below) ([a-z]+ )?([a-z'-]+ )?(post|message|announcement|question)": 'read thread',
    // A channel's details count its members ("how many people are in #all-staff").
    '(how many|number of) (people|ppl|members|folks|users) (are )?(in|on) #': 'channel info member',
    // Slack's help pages: a file or a document is attached to a message, shared in a channel or a DM.
    '(attach|share|send|post|drop) (a |an |the |this |that |our |my )?([a-z0-9-]+ ){0,3}(file|document|pdf|image|picture|photo|screenshot|spreadsheet|attachment)s? (to|in|into|with) (a |the |this |that |our )?([a-z-]+ )?(message|post|channel|dm|thread|conversation|#)':
      'upload file',
    // A member's status ("out sick", "in a meeting") is on their profile.
    '(someone|person|member|coworker|colleague|teammate|user|my|his|her|their)( slack)? status': 'user profile',
    // "what is #random about", "close #old-project".
    '(what|whats)( is)? #[a-z0-9_-]+( channel)? (for|about)': 'topic purpose',
    '(close|shut|retire) (down )?(the )?#': 'archive channel',
    // A channel is archived, not deleted: "get rid of the old channel" archives it.
    '(delete|remove|close|shut) (down )?(a |an |the |this |that |our |my )?([a-z-]+ ){0,2}(channel|room)': 'archive channel',
    // Slack's help pages: a pinned message stays at the top of the channel.
    '(keep|stick|put) ([a-z-]+ ){0,3}at the top': 'pin',
    '(what|which) (the |a |this |our )?([a-z-]+ )?(channel|room) is (for|about)': 'topic purpose',
  },
});
