import { defineVocabulary } from '@portico/core/plugin';

/**
 * How the people who use Acme Tasks speak of it, for search_methods: core reads every query with the vocabularies of
 * the installed plugins, so these words find this plugin's operations without any change to core.
 */
export const acmeTasksVocabulary = defineVocabulary({
  // Names of the application besides its service key and brand ("Acme"): "in Acme Tasks" ranks its operations first.
  names: ['Acme Tasks'],
  // Words only this application uses: a query with one ranks its operations first, as its name does.
  cues: ['kanban'],
  // Everyday words for the kind of application: a query with one prefers this service a little.
  kinds: ['to-do', 'todo'],
  // A word of the operations → the words people use for it, read in the query only.
  synonyms: { task: ['chore', 'errand', 'ticket'] },
  // Phrases read before single words → the operations' words they add.
  phrases: { 'action items?': 'task' },
});
