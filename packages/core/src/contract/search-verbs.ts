import { stem } from './search-words.js';

// The verbs search_methods reads a query's action from (search-intent.ts reads the query).

/**
 * What a query asks for: to read what exists, or to create, change or delete something. A question, or words naming
 * records ("new leads created today", "overdue invoices"), asks to read: "new", "created" and "added" there are
 * filters. A verb at the head of a clause ("add a line", "…, call off the consultation") asks to act.
 */
export type Action = 'read' | 'create' | 'update' | 'delete';
/** What a query asks: an action, or `write` for a verb that acts without saying how ("set a reminder", "run a report"). */
export type Asked = Action | 'write';

/** The verbs people use, by the action they ask for. `true`: the verb says nothing else (it is not a topic word). */
export const VERBS: Record<string, [Action, boolean]> = {};
/** The verbs the reading knows, as written: known spellings of a query. */
export const VERB_WORDS = (): string[] => Object.keys(VERBS);
const verbs = (action: Action, generic: boolean, list: string) => {
  for (const word of list.split(' ')) VERBS[word] = [action, generic];
};
verbs('read', true, 'show list find look get see view open pull check fetch display retrieve browse');
verbs('read', false, 'search read count download preview listen play query lookup filter sort calculate compute');
verbs('create', true, 'add create make enter put give turn convert');
verbs(
  'create',
  false,
  'log record book schedule write jot save upload send post tell reply dm ping mention invite attach tag pin append assign ask request start copy duplicate leave share draft notify react generate bill flag label remind zip compress comment say announce respond answer bring deposit link',
);
verbs('update', true, 'update change edit modify fix correct amend adjust revise tweak');
verbs(
  'update',
  false,
  'switch reassign rename move mark reschedule postpone delay push bump raise increase reduce decrease lower extend approve close reopen archive complete replace disable enable deactivate reactivate activate hide unhide recolour recolor',
);
verbs('delete', true, 'delete remove erase scrap ditch discard purge');
verbs('delete', false, 'void dismiss drop cancel unpin untag detach stop take pause halt');

/** The stems of the verbs asking to change or delete, and what they ask ("mov" of "moving": update). */
let changeStems: Map<string, Action> | undefined;
export const CHANGE_STEMS = (): Map<string, Action> => {
  changeStems ??= new Map(
    Object.entries(VERBS)
      .filter(([, [action]]) => action === 'update' || action === 'delete')
      .map(([word, [action]]) => [stem(word), action]),
  );
  return changeStems;
};
