import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A module-resolution hook for tests of the built CLI: a `portico` process started with `env(name)` (NODE_OPTIONS
 * `--import` of the hook's registration, PORTICO_TEST_RESOLVED naming its log) appends every URL it resolves to a log
 * of its own, so that a test can tell which modules the process loaded, and when.
 */
export function moduleLog(dir: string): { env(name: string): Record<string, string>; modules(name: string): string } {
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.PORTICO_TEST_RESOLVED, result.url + '\\n');
  return result;
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const logOf = (name: string) => join(dir, `${name}.resolved`);
  return {
    env(name) {
      writeFileSync(logOf(name), '');
      return { PORTICO_TEST_RESOLVED: logOf(name), NODE_OPTIONS: `--import=${pathToFileURL(register).href}` };
    },
    /** Every URL the process has resolved so far, one a line. */
    modules: (name) => readFileSync(logOf(name), 'utf8'),
  };
}
