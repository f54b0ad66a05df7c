/**
 * A plugin's words for search_methods: how the people who use its application name it, its records and what they do
 * with them. Core reads queries with the vocabularies of the installed plugins merged (tokenizing, stemming and intent
 * are core's); a plugin brings its application's words without changing core.
 */
export interface PluginVocabulary {
  /**
   * Names of the application as people write them ("QuickBooks", "QBO"). A query naming one ranks this service's
   * matching operations before any other service's. The service key and the display name's first word always count.
   */
  names?: readonly string[];
  /**
   * Words and phrases that only this application uses ("call tracking", "workspace page"); `*` stands for any one word
   * ("#*" is a channel such as #billing). A query using one ranks this service's matching operations first, as a name
   * does. Keep them unambiguous among the applications a firm may install together.
   */
  cues?: readonly string[];
  /** Everyday words for the kind of application ("books", "bookkeeping"): a query using one prefers this service. */
  kinds?: readonly string[];
  /**
   * Word of the application's operations → the words people use for it ("activity": ["time entry", "timesheet"]). Read
   * in the query only: a query word stands, a little less, for each word it is listed under.
   */
  synonyms?: Readonly<Record<string, readonly string[]>>;
  /**
   * Phrases read before single words → the operations' words they add ("a/r aging": "aged receivable"). A phrase is a
   * regular-expression source matched on whole words of the lowercased query.
   */
  phrases?: Readonly<Record<string, string>>;
  /**
   * Records people call by a name of a few words written before them ("channel" of "the billing channel", "page" of
   * "the holiday schedule page"): those words name one record, they are not what the query is about.
   */
  named?: readonly string[];
}

/** Declares a plugin's vocabulary (typed; checked when the plugin is registered). */
export function defineVocabulary(vocabulary: PluginVocabulary): PluginVocabulary {
  return vocabulary;
}

/** What is wrong with a vocabulary, one sentence each (empty when it is fine). */
export function vocabularyProblems(vocabulary: PluginVocabulary): string[] {
  const problems: string[] = [];
  const blank = (list: readonly string[] | undefined, what: string) => {
    for (const word of list ?? []) if (typeof word !== 'string' || word.trim() === '') problems.push(`${what}: an empty entry`);
  };
  blank(vocabulary.names, 'names');
  blank(vocabulary.cues, 'cues');
  blank(vocabulary.kinds, 'kinds');
  blank(vocabulary.named, 'named');
  for (const cue of vocabulary.cues ?? []) if (cue.replace(/[*\s]/g, '') === '') problems.push(`cues: "${cue}" says nothing`);
  for (const [word, alternatives] of Object.entries(vocabulary.synonyms ?? {})) blank(alternatives, `synonyms of ${word}`);
  for (const phrase of Object.keys(vocabulary.phrases ?? {})) {
    try {
      new RegExp(phrase);
    } catch {
      problems.push(`phrases: "${phrase}" is not a valid regular expression`);
    }
  }
  return problems;
}
