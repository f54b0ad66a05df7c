import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from './environment.js';
import { environmentTable } from './environment-docs.js';
import { ConfigError, loadConfig } from './load.js';

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8787, upstreamTimeoutMs: 30_000, upstreamRetries: 2, retryAfterCapMs: 10_000 });
    expect(config.databaseUrl).toMatch(/^file:.*data\/portico\.db$/);
    expect(config.plugins).toBeUndefined();
  });

  it('reads per-service base URLs, renames and plugin lists', () => {
    const config = loadConfig({
      PORTICO_NOTION_BASE_URL: 'http://127.0.0.1:9999/v1/',
      PORTICO_SERVICE_RENAMES: 'notion=notes, slack=chat',
      PORTICO_PLUGINS: 'notes, @acme/portico-plugin-x',
    });
    expect(config.baseUrls).toEqual({ notion: 'http://127.0.0.1:9999/v1' });
    expect(config.serviceRenames).toEqual({ notion: 'notes', slack: 'chat' });
    expect(config.plugins).toEqual(['notes', '@acme/portico-plugin-x']);
  });

  it('names every bad value in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORTICO_PORT: 'eighty',
        PORTICO_UPSTREAM_TIMEOUT_MS: '-5',
        PORTICO_LOG_LEVEL: 'loud',
        PORTICO_NOTION_BASE_URL: 'ftp://x',
        PORTICO_DATABASE_URL: 'mysql://root:hunter2@localhost/db',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('hunter2');
    const message = (error as Error).message;
    for (const name of [
      'PORTICO_PORT',
      'PORTICO_UPSTREAM_TIMEOUT_MS',
      'PORTICO_LOG_LEVEL',
      'PORTICO_NOTION_BASE_URL',
      'PORTICO_DATABASE_URL',
    ]) {
      expect(message).toContain(name);
    }
  });
});

describe('docs/configuration.md', () => {
  it('holds the configuration table generated from the declared variables (portico env --markdown)', () => {
    const doc = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    const table = environmentTable();
    expect(table.split('\n')).toHaveLength(ENVIRONMENT.length + 2);
    expect(doc.includes(`${table}\n`), 'docs/configuration.md: replace the table by the output of `portico env --markdown`').toBe(true);
  });
});
