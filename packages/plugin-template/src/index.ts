// The Portico plugin template: a fictional task-list API, "Acme Tasks" (https://api.tasks.example/v1), with three
// operations (a paged list, a get, a create). Copy this package and rename it: see README.md.
import { definePlugin, packageVersion } from '@portico/core/plugin';
import { createTask, getTask, listTasks } from './operations/tasks.js';
import { upstream } from './upstream.js';
import { acmeTasksVocabulary } from './vocabulary.js';

export { createTask, getTask, listTasks } from './operations/tasks.js';

export const acmeTasksPlugin = definePlugin({
  service: 'acmetasks', // 2-32 lowercase letters or digits: call_acmetasks over MCP, /api/v1/acmetasks over REST
  displayName: 'Acme Tasks',
  version: packageVersion(import.meta.url), // the version in this package's package.json
  description: 'Acme Tasks, a to-do list: list, read and create tasks.',
  contract: 1,
  upstream,
  auth: { token: { description: 'An Acme Tasks API token (Settings → API tokens).' } },
  operations: [listTasks, getTask, createTask],
  // The application's words for search_methods (see vocabulary.ts).
  vocabulary: acmeTasksVocabulary,
  sandbox: () => import('./sandbox/index.js'),
});

export default acmeTasksPlugin;
