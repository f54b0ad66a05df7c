import type { CallRec } from './records.js';

/**
 * What CallRail's transcription (its Conversation Intelligence) makes of a recorded call: the words of the caller, and
 * of the agent on an answered call. Only recorded calls of accounts that transcribe have one; the rest answer null.
 */
export function transcriptionOf(c: CallRec, company: string | null, recorded: boolean, transcribes: boolean): string | null {
  if (!recorded || !transcribes) return null;
  const caller = c.customer_name ? `Hi, this is ${c.customer_name}.` : 'Hi.';
  const about = c.note ? `${c.note.replace(/\.$/, '')}.` : 'I have a question for one of the attorneys.';
  const back = `You can reach me at ${spoken(c.customer_phone_number)}.`;
  if (c.answer_status === 'voicemail') return `${caller} I'm calling ${company ? `${company} ` : ''}about a legal matter. ${about} ${back}`;
  if (c.direction === 'outbound') return `Agent: Hello, this is ${company ?? 'the firm'} returning your call. Caller: ${caller} ${about}`;
  return `Agent: Thank you for calling ${company ?? 'us'}, how can I help? Caller: ${caller} ${about} ${back}`;
}

/** `+14155550187` → `415-555-0187`, as a transcript writes a number. */
function spoken(e164: string): string {
  const d = e164.replace(/\D/g, '').slice(-10);
  return `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
}
