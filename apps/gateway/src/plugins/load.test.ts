import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { loadPlugins } from './load.js';

/** An operator's project with throwaway plugin packages in its node_modules, the gateway started from it. */
let project: string;
let previousCwd: string;

function writePackage(name: string, manifest: object, files: Record<string, string>): void {
  const root = join(project, 'node_modules', name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
}

// isPlugin checks the brand definePlugin stamps: enough for the loader, and no @portico/core needed in the project.
const plugin = (service: string) => `{ brand: 'portico.plugin', service: '${service}' }`;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'portico-project-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'operator', private: true }));
  // ESM, reachable only through the `import` condition (no `require`, no `default`, no `main`)
  writePackage(
    '@acme/portico-plugin-esm',
    { type: 'module', exports: { '.': { types: './index.d.ts', import: './index.js' } } },
    { 'index.js': `export default ${plugin('esm')};\n` },
  );
  // what `npm init` gives: CommonJS, here exporting the plugin's definition without definePlugin (which is ESM-only)
  writePackage(
    '@acme/portico-plugin-cjs',
    { main: 'index.js' },
    { 'index.js': `const { join } = require('node:path');\nmodule.exports = { service: 'cjs', docs: join('a', 'b') };\n` },
  );
  // ESM, the plugin exported by name only
  writePackage(
    '@acme/portico-plugin-named',
    { type: 'module', main: 'index.js' },
    { 'index.js': `export const acme = ${plugin('named')};\n` },
  );
  // ESM, a default export that is not a plugin
  writePackage(
    '@acme/portico-plugin-plain',
    { type: 'module', exports: './index.js' },
    { 'index.js': `export default { service: 'plain' };\n` },
  );
  previousCwd = process.cwd();
  process.chdir(join(project));
});

afterAll(() => {
  process.chdir(previousCwd);
  rmSync(project, { recursive: true, force: true });
});

describe('a plugin installed in the operator’s project', () => {
  it('is found with ESM resolution when its exports offer only the import condition', async () => {
    const plugins = await loadPlugins(['@acme/portico-plugin-esm'], silentLogger);
    expect(plugins.map((p) => p.service)).toEqual(['esm']);
  });

  it('is found from a subdirectory of the project, or with cwd given', async () => {
    const sub = join(project, 'config');
    mkdirSync(sub, { recursive: true });
    const plugins = await loadPlugins(['@acme/portico-plugin-esm'], silentLogger, { cwd: sub });
    expect(plugins.map((p) => p.service)).toEqual(['esm']);
  });

  it('is refused when CommonJS, with what to change', async () => {
    const refusal = loadPlugins(['@acme/portico-plugin-cjs'], silentLogger);
    await expect(refusal).rejects.toThrow(/@acme\/portico-plugin-cjs is CommonJS .*Add "type": "module" to its package\.json/);
    await expect(refusal).rejects.toThrow(/export default definePlugin\(/);
  });

  it('is refused without a default export, naming the export to make default', async () => {
    await expect(loadPlugins(['@acme/portico-plugin-named'], silentLogger)).rejects.toThrow(
      /has no default export \(named exports: acme\); it exports a plugin as "acme": add `export default acme;`/,
    );
  });

  it('is refused when its default export is not a plugin, saying to use definePlugin', async () => {
    await expect(loadPlugins(['@acme/portico-plugin-plain'], silentLogger)).rejects.toThrow(
      /default export is not a Portico plugin \(got a object.*export default definePlugin\(/,
    );
  });

  it("is loaded from its own folder (PORTICO_EXTRA_PLUGINS=.), through the folder's package.json", async () => {
    const folder = join(project, 'my-plugin');
    mkdirSync(join(folder, 'dist'), { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'my-plugin', type: 'module', exports: { '.': { import: './dist/index.js' } } }),
    );
    writeFileSync(join(folder, 'dist', 'index.js'), `export default ${plugin('mine')};\n`);
    const plugins = await loadPlugins([], silentLogger, { extra: ['./my-plugin'] });
    expect(plugins.map((p) => p.service)).toEqual(['mine']);
  });

  it('is still "not installed" when absent', async () => {
    await expect(loadPlugins(['@acme/portico-plugin-absent'], silentLogger)).rejects.toThrow(/is not installed/);
  });
});

describe('PORTICO_EXTRA_PLUGINS', () => {
  it('adds third-party plugins to the first-party ones instead of replacing them', async () => {
    const config = loadConfig({ PORTICO_EXTRA_PLUGINS: ' @acme/portico-plugin-esm ,' });
    expect(config.plugins).toBeUndefined();
    expect(config.extraPlugins).toEqual(['@acme/portico-plugin-esm']);
    const services = (await loadPlugins(config.plugins, silentLogger, { extra: config.extraPlugins })).map((p) => p.service);
    expect(services).toContain('esm');
    expect(services).toContain('notion'); // first-party plugins are still loaded
    expect(services.length).toBeGreaterThan(2);
  });

  it('adds to an explicit PORTICO_PLUGINS list, and an extra plugin that is not installed is an error', async () => {
    const config = loadConfig({ PORTICO_PLUGINS: 'notes', PORTICO_EXTRA_PLUGINS: '@acme/portico-plugin-esm' });
    const plugins = await loadPlugins(config.plugins, silentLogger, { extra: config.extraPlugins });
    expect(plugins.map((p) => p.service)).toEqual(['notion', 'esm']);
    await expect(loadPlugins(undefined, silentLogger, { extra: ['@acme/portico-plugin-absent'] })).rejects.toThrow(/not installed/);
  });
});
