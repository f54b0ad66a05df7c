import { defineVocabulary } from '@portico/core/plugin';

/** Lawmatics' words, as an intake coordinator uses them: what search_methods reads a query with. */
export const lawmaticsVocabulary = defineVocabulary({
  names: ['Lawmatics'],
  // Lawmatics' help pages: matters move through a pipeline, are hired or not hired, get email campaigns and lost reasons.
  cues: [
    'pnc',
    'potential new client',
    'intake form',
    'drip campaign',
    'sub status',
    'sub-status',
    'pipeline',
    'hired',
    'not hired',
    'email campaign',
    'lost reason',
    'custom form',
    // Lawmatics' help pages: intake questionnaires are its custom forms; a matter is marked lost.
    'questionnaire',
    'as lost',
    'estimated value',
    // Lawmatics' help pages: LMPay takes a firm's payments; intake consultations sit on its calendar.
    'lmpay',
    'lawmatics pay',
    'intake calendar',
  ],
  // "the Consult Scheduled stage", "the intake pipeline": the words before the noun name one of them.
  named: ['stage', 'pipeline', 'dropdown', 'picklist'],
  synonyms: {
    contact: ['client', 'person', 'people', 'individual', 'customer'],
    company: ['organization', 'organisation', 'business', 'insurer', 'insurance', 'corporation'],
    // Lawmatics' help pages call a prospect a matter, from first inquiry to hired or not.
    prospect: ['lead', 'inquiry', 'enquiry', 'intake', 'pnc', 'potential', 'prospective', 'matter'],
    matter: ['case', 'file', 'lawsuit', 'litigation', 'suit'],
    attorney: ['lawyer', 'solicitor'],
    relationship: ['related', 'involved', 'spouse', 'witness', 'guardian', 'parent', 'opposing', 'expert', 'judge', 'co-counsel'],
    activity: ['time', 'hour', 'minute', 'expense', 'timesheet', 'timekeeping', 'cost', 'disbursement', 'unbilled'],
    rate: ['hourly', 'price', 'charge'],
    bill: ['invoice', 'billed', 'unbilled', 'owe', 'owed', 'owing'],
    invoice: ['bill', 'unpaid', 'billed'],
    payment: ['paid', 'pay', 'card', 'online'],
    transaction: ['ledger', 'deposit', 'withdrawal'],
    expense: ['spend', 'spent', 'spending', 'cost', 'mileage', 'postage', 'courier', 'photocopy', 'photocopies'],
    item: ['product', 'service', 'charge'],
    line: ['charge'],
    billable: ['unbilled'],
    sign: ['signature', 'signatures', 'signing', 'docusign', 'esignature'],
    calendar: ['diary', 'schedule', 'agenda'],
    event: ['appointment', 'consultation', 'meeting', 'consult', 'booked', 'book', 'zoom'],
    time: ['hour', 'minute', 'min', 'mins', 'timesheet'],
    entry: ['hearing', 'appointment', 'deposition', 'meeting', 'consultation', 'trial', 'mediation', 'court', 'date', 'timesheet'],
    stage: ['step', 'phase', 'pipeline', 'board', 'kanban'],
    // Lawmatics' help pages: a matter is hired or lost, the three statuses being PNC, hired and lost.
    status: ['hired', 'hire', 'lost', 'retained'],
    call: ['phone', 'caller', 'calls', 'rang', 'voicemail', 'voicemails'],
    message: ['chat', 'post', 'text', 'said', 'announcement', 'tell', 'announce'],
    form: ['questionnaire', 'survey'],
    submission: ['entry', 'entries', 'filled', 'submitted', 'response', 'responses'],
    recording: ['listen', 'audio', 'play'],
    source: ['marketing', 'referral', 'channel', 'funder'],
    stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
    campaign: ['drip', 'newsletter', 'sequence'],
    // Lawmatics' help pages: a custom field may be a picklist, a dropdown of options.
    field: ['dropdown', 'drop-down', 'picklist'],
    // Lawmatics' help pages: interactions are the calls, meetings and texts logged on a matter.
    interaction: ['met', 'spoke', 'talked', 'in-person', 'walk-in'],
    area: ['type'],
    practice: ['type', 'area'],
  },
  phrases: {
    'time entry': 'activity time',
    // Lawmatics' help pages: sub statuses are the finer reasons a matter is lost or hired ("lost – hired other firm").
    '(why|reasons?|options?) ([a-z-]+ ){0,4}(lost|losing|turned down|declined|not hired|did not hire|went elsewhere)|lost reasons?|reasons? for (losing|loss)':
      'sub status',
    // Lawmatics' help pages: a one-off email sent to many at once is a custom email; an email blast.
    '(email )?blast(s|ed|ing)?|one-off emails?|mass emails?': 'custom email',
    // A picklist's options are a custom field's.
    '(options?|choices?|values?|choose|pick|select) (in|of|for|from) (the |a |this |that )?([a-z-]+ ){0,3}(drop-?downs?|picklists?|fields?)|(drop-?down|picklist) (options?|choices?|values?)':
      'custom field option',
    // LMPay, Lawmatics' payments: its payments received are transactions.
    '(lmpay|lawmatics pay)': 'transaction payment',
    // "met with the Garrisons in person", "a walk-in": a meeting logged on the matter as an interaction.
    '(met|meeting|spoke|talked) (with )?([a-z-]+ ){0,3}(in person|face to face)|in person|face to face|walk-in': 'interaction meeting',
    // Lawmatics' help pages: leads, contacts and matters are tagged ("tag the lead as a VIP referral").
    '(tag|flag|label) (the |this |that |a |an |our )?(lead|prospect|pnc|contact|matter|company|client)s? (as|with)': 'attach tag',
    // "log time", "record my hours": a time entry, not a logged call.
    '(log|record|enter|track) (my |our |the |some )?(time|hours)': 'time entry',
    // "log 0.5 hours", "record 30 minutes": an amount of time logged is a time entry too.
    '(log|record|enter|track|bill|add) [0-9][0-9.,]* (hours?|hrs?|minutes?|mins?)': 'time entry',
    'time entries': 'activity time',
    'billing rate': 'activity rate',
    'potential client': 'prospect',
    'case type': 'practice area',
    'prospective client': 'prospect',
    'new client': 'prospect contact',
    'court date': 'calendar entry',
    'related contact': 'relationship',
    'opposing counsel': 'relationship',
    'line item': 'line item',
    'calendar events?': 'calendar entry',
    '(my|in-app) notifications?': 'my event',
    // Lawmatics' help pages: appointments take place at the firm's locations, its offices.
    '(office|branch)e?s? ([a-z-]+ ){0,2}(for|to hold|to book) ([a-z-]+ ){0,2}(consults?|consultations?|appointments?|meetings?)|(consults?|consultations?|appointments?|meetings?) ([a-z-]+ ){0,3}(at|in) (the |our |which |what |a )?([a-z-]+ )?(office|branch)e?s?':
      'location event',
    // Lawmatics' help pages: the intake calendar holds the consultations and appointments, its events.
    '(intake|consultation|consult|appointment) calendars?': 'event',
    // "half an hour", "45 min": an amount of time is a time entry's duration.
    '(half an|a few|[0-9][0-9.,]*) (hours?|hrs?|minutes?|mins?)|half hour': 'time entry duration',
    'conflicts? (check|search)': 'contact matter',
    'open rate': 'stat',
    // "how did the October newsletter do": how a campaign performed.
    'how (did|is|are|was|were) ([a-z-]+ ){1,4}(do|doing|perform|performing|go|going)': 'stat',
    // Lawmatics' help pages: a matter is marked hired or lost.
    'mark ([a-z-]+ ){0,3}as (lost|hired|retained|not hired)': 'update prospect status',
    // "how much time have I tracked", "hours we logged": time entries.
    '(time|hours) (have |has |did )?([a-z]+ )?(tracked|logged|recorded|billed|spent)': 'time entry',
  },
});
