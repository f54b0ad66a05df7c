import { isolationSuite } from './workspaces.test-support.js';

isolationSuite('SQLite', () => ({}), 1);
isolationSuite('SQLite', () => ({}), 1, 'grant');
