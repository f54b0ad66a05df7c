// Every operation, through the real pipeline, against a loopback recorder: each fixture says what the upstream must
// receive, what it answers, and what the caller gets. describeFixtures runs each fixture twice, over MCP and over
// REST, checks that every operation has a success fixture and a refused one, and that every operation is documented
// and its example valid.
import { describeFixtures } from '@portico/core/testing';
import { refusedFixtures } from './fixtures/refused.js';
import { taskFixtures } from './fixtures/tasks.js';
import { upstreamErrorFixtures } from './fixtures/upstream-errors.js';
import { acmeTasksPlugin } from './index.js';

describeFixtures(acmeTasksPlugin, {
  // headers every authenticated upstream request must carry (the harness connects with `fixture-token`)
  authHeaders: { authorization: 'Bearer fixture-token' },
  groups: { tasks: taskFixtures, 'upstream errors': upstreamErrorFixtures },
  refused: refusedFixtures,
});
