import { defineVocabulary } from '@portico/core/plugin';

/** CallRail's words, as people at a firm use them: what search_methods reads a query with. */
export const callRailVocabulary = defineVocabulary({
  names: ['CallRail', 'Call Rail'],
  // CallRail's help pages: its screens' words, used by no other application a firm connects.
  cues: [
    'call tracking',
    'tracking number',
    'call volume',
    'lead score',
    'call recording',
    'first-time caller',
    'first time caller',
    'swap target',
    'number pool',
    'dynamic number insertion',
    'call transcript',
    'transcription',
    'missed call',
    'answered call',
    'call flow',
    'call log',
    'form tracking',
    'lead status',
    // CallRail's help pages: a call is tagged and noted in the call log ("tag the call as spam", "add a note to the call").
    'tag * call',
    'tag * * call',
    'tag * * * call',
    'tag the call',
    'tag off * call',
    'tag off * * call',
    'note to * call',
    'note to * * call',
    'note on * call',
    'note on * * call',
    'to this call',
    'to that call',
    'calls tagged',
    // CallRail's help pages: texts with a caller are its text message conversations.
    'texts from * caller',
    'texts with * caller',
    'texts exchanged with * caller',
    'text messages from * caller',
    'text messages with * caller',
    'texted * caller',
    // Texts (SMS) with the firm's callers are CallRail's: Slack's are messages.
    'texts from',
    'texted us',
    // CallRail's help pages: the number a call placed from CallRail shows is its outbound caller ID.
    'outbound caller id',
  ],
  synonyms: {
    // CallRail's help pages: the users who answer calls are its agents.
    user: ['agent', 'agents'],
    company: ['organization', 'organisation', 'business', 'insurer', 'insurance', 'corporation'],
    time: ['hour', 'minute', 'timesheet'],
    call: ['phone', 'caller', 'calls', 'rang', 'voicemail', 'voicemails'],
    conversation: ['portal', 'secure'],
    page: ['document', 'doc', 'wiki', 'handbook', 'policy', 'article', 'row', 'item', 'knowledge'],
    message: ['chat', 'post', 'text', 'said', 'announcement', 'tell', 'announce'],
    thread: ['replies', 'reply'],
    sms: ['text', 'texting', 'texts'],
    form: ['questionnaire', 'survey'],
    submission: ['entry', 'entries', 'filled', 'submitted'],
    tracker: ['tracking', 'billboard', 'ad', 'ads'],
    recording: ['listen', 'audio', 'play'],
    notification: ['alert', 'alerted', 'unread', 'notify', 'notified'],
    source: ['marketing', 'referral', 'channel', 'funder'],
    stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
    campaign: ['drip', 'newsletter', 'blast', 'sequence'],
  },
  phrases: {
    'chart of accounts': 'account',
    'caller id': 'outbound caller',
    // "which number shows up on their end when we call back": the number shown to the person called is the caller ID.
    '(number|name) ([a-z]+ ){0,2}(shows?|showing|appears?|displays?|comes?) (up )?(on|to) (their|the other|the client|the caller|the customer|the lead) ?(end|phone|screen|side)?':
      'outbound caller id',
    // CallRail's help pages: a note or tags on a call annotate it ("put a note on the 9:40 call", "tag the call as spam").
    '(note|notes|tag|tags) (on|to|off) (the |that |this |a |yesterday |today )?([a-z0-9:-]+ ){0,3}calls?\\b': 'update call',
    // CallRail's help pages: CRMs and Zapier receive calls through its integrations, as Google Ads or Analytics do once
    // connected (an ad platform named alone is a source of calls).
    '(salesforce|hubspot|zapier)\\b': 'integration',
    '(hooked|plugged|synced|wired) (up |in )?(to|with)|integrated with': 'integration',
    '(calling|dialing) out|outgoing call|outbound call': 'outbound caller',
    'lasted|how long': 'duration call',
    // CallRail's reports: the average duration of calls over a period.
    '(average|avg|mean) ([a-z-]+ ){0,2}(length|duration)': 'summarize call data',
    'first[- ]time callers?': 'call',
    'tracking number': 'tracker',
    'client portal': 'conversation',
    'text message': 'sms text message',
    'open rate': 'stat',
    // CallRail's reports: calls or forms counted by source, campaign, keyword or page.
    '(by|per|each) (source|campaign|keyword|referrer|landing page|tracker|tracking number)': 'summarize group',
    'call log': 'list calls',
    // CallRail's help pages: form fills counted over a period are its form summary.
    '(how many|number of|count of|total) ([a-z-]+ ){0,2}(forms?|form fills?|form submissions?|submissions?)': 'summarize form data',
    // CallRail's help pages: the people notified of a new call, text or form are its notifications.
    '(who|which (users?|people|agents?)|whom) (gets?|is|are|will be) (notified|alerted)': 'list notification alerted',
    'direct messages?': 'conversation message',
  },
});
