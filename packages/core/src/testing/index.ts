export { type CatalogDifferences, type CatalogOperation, type CatalogParam, compareWithCatalog } from './catalog.js';
export { examplePlugin } from './example-plugin.js';
export {
  createFixtureHarness,
  type ExpectedRequest,
  type FixtureHarness,
  type FixtureHarnessOptions,
  type OperationFixture,
  type ScriptedResponse,
} from './fixtures.js';
export { type SandboxHarness, startSandboxHarness } from './sandbox.js';
