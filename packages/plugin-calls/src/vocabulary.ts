import { defineVocabulary } from '@portico/core/plugin';

/** CallRail's words, as people at a firm use them: what search_methods reads a query with. */
export const callRailVocabulary = defineVocabulary({
  names: ['CallRail', 'Call Rail'],
  cues: ['call tracking', 'tracking number', 'call volume', 'lead score', 'call recording'],
  synonyms: {
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
    notification: ['alert', 'alerted', 'unread'],
    source: ['marketing', 'referral', 'channel', 'funder'],
    stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
    campaign: ['drip', 'newsletter', 'blast', 'sequence'],
  },
  phrases: {
    'chart of accounts': 'account',
    'caller id': 'outbound caller',
    'tracking number': 'tracker',
    'client portal': 'conversation',
    'text message': 'sms text message',
    'open rate': 'stat',
    'direct messages?': 'conversation message',
  },
});
