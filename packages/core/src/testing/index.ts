import { compilerReady } from '../contract/validation.js';

// What a plugin's tests check it with beyond the contract (`@portico/core/plugin`): the registry and the documents the
// gateway derives from its declarations, the egress policy its hosts pass, the principal a call runs as.
export type { Principal } from '../access/api-keys.js';
export { Registry } from '../contract/registry.js';
export { OperationIndex } from '../contract/search.js';
export { describeOperation } from '../doors/describe.js';
export { buildOpenApiDocument } from '../doors/openapi.js';
export { EgressPolicy } from '../upstream/egress.js';
export { type CatalogDifferences, type CatalogOperation, type CatalogParam, compareWithCatalog } from './catalog.js';
// The emulator kit (./emulator.ts: the server, the sandbox clock and zone, the firm and its sign-in), and what tests
// add to it.
export * from './emulator.js';
export { examplePlugin } from './example-plugin.js';
export {
  describeFilters,
  type FilterCase,
  type FilterChoice,
  type FilterRecord,
  type FilterSuiteOptions,
  filterParams,
  NOT_FILTERS,
  pickValue,
} from './filter-suite.js';
export {
  createFixtureHarness,
  type ExpectedRequest,
  type FixtureHarness,
  type FixtureHarnessOptions,
  type OperationFixture,
  type ScriptedResponse,
} from './fixtures.js';
export { type SandboxHarness, startSandboxHarness } from './sandbox.js';
export { describeFixtures, type FixtureSuiteOptions, type SandboxSuiteOptions, useSandbox } from './suites.js';

// Tests call operations' validators directly (`validator.problems(example)`), and core loads typebox's compiler with the
// first validation (contract/validation.ts): importing the testing helpers loads it.
await compilerReady();
