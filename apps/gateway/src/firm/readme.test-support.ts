import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What the README's "Trying it" tells about the sandboxes' firm, read from its words. */
export interface ReadmeFirm {
  /** "Its clients A, B … and Z are the same people". */
  clients: string[];
  /** "Yesterday NAME called about MATTER and her invoice NUMBER, half paid and overdue". */
  yesterday: { caller: string; matter: string; invoice: string };
  /** "this morning NAME, a new caller, left a voicemail about …". */
  thisMorning: { caller: string; about: string };
}

const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));

/** The README's firm paragraph (under "Trying it"), on one line; throws when a sentence the tests read is gone. */
export function readmeFirm(text = readFileSync(README, 'utf8')): ReadmeFirm {
  const section = text.split('## Trying it')[1]?.split('\n## ')[0]?.replace(/\s+/g, ' ') ?? '';
  const clients = /Its clients (.+?) are the same people/.exec(section)?.[1];
  const yesterday = /Yesterday (.+?) called about (.+?) and (?:her|his|their) invoice (\d+), half paid and overdue/.exec(section);
  const morning = /this morning (.+?), a new caller, left a voicemail about (.+?) and is a fresh lead in Lawmatics/.exec(section);
  if (!clients || !yesterday || !morning)
    throw new Error('README.md\'s "Trying it" no longer says who the firm\'s clients and callers are');
  return {
    clients: clients.split(/, | and /).map((name) => name.trim()),
    yesterday: { caller: yesterday[1] as string, matter: yesterday[2] as string, invoice: yesterday[3] as string },
    thisMorning: { caller: morning[1] as string, about: morning[2] as string },
  };
}
