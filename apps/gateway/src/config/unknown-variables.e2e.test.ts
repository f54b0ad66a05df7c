import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';
import { unknownVariables } from './unknown-variables.js';

describe('PORTICO_ variables the gateway does not read', () => {
  it('refuses a misspelling of one it reads, naming the variable meant', () => {
    expect(unknownVariables({ PORTICO_DATABSE_URL: 'postgres://u:secret@db/portico' }).refused).toEqual([
      'PORTICO_DATABSE_URL is not a Portico variable: did you mean PORTICO_DATABASE_URL? (portico env lists them all)',
    ]);
    expect(() => loadConfig({ PORTICO_DATABSE_URL: 'postgres://u:secret@db/portico' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORTICO_DATABSE_URL: 'postgres://u:secret@db/portico' })).toThrow(/did you mean PORTICO_DATABASE_URL\?/);
    expect(() => loadConfig({ PORTICO_DATABSE_URL: 'postgres://u:secret@db/portico' })).not.toThrow(/secret/);
  });

  it('spells the per-service variables and secret files with the service named', () => {
    expect(unknownVariables({ PORTICO_CLIO_CLIENT_SECRT: 'x' }).refused[0]).toContain('did you mean PORTICO_CLIO_CLIENT_SECRET?');
    expect(unknownVariables({ PORTICO_CLIO_BASE_ULR: 'x' }).refused[0]).toContain('did you mean PORTICO_CLIO_BASE_URL?');
    expect(unknownVariables({ PORTICO_ENCRYPTION_KEY_FIEL: 'x' }).refused[0]).toContain('did you mean PORTICO_ENCRYPTION_KEY_FILE?');
  });

  it('warns about other unknown ones with the nearest known name, and starts', () => {
    const env = { PORTICO_HOST_FILE: '/run/secrets/host', PORTICO_FAVOURITE_COLOUR: 'blue', PORTICO_CLIO_BASE_URL_FILE: '/run/url' };
    const { refused, warnings } = unknownVariables(env);
    expect(refused).toEqual([]);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^PORTICO_CLIO_BASE_URL_FILE is not a Portico variable/);
    expect(warnings[1]).toMatch(/^PORTICO_FAVOURITE_COLOUR is not a Portico variable and is ignored; the nearest is PORTICO_[A-Z_]+ /);
    expect(warnings[2]).toMatch(/^PORTICO_HOST_FILE is not a Portico variable and is ignored; the nearest is PORTICO_[A-Z_]+ /);
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('takes every variable it reads, per-service ones and secret files, and leaves the test suite’s own alone', () => {
    const env = {
      PORTICO_DATABASE_URL: 'file:x.db',
      PORTICO_DATABASE_URL_FILE: '/run/secrets/db',
      PORTICO_SANDBOX_TODAY: '2026-01-02',
      PORTICO_NOTION_BASE_URL: 'http://127.0.0.1:1',
      PORTICO_QUICKBOOKS_CLIENT_ID: 'a',
      PORTICO_QUICKBOOKS_CLIENT_SECRET_FILE: '/run/secrets/qb',
      PORTICO_QUICKBOOKS_OAUTH_REVOKE_URL: 'http://127.0.0.1:2',
      PORTICO_CLIO_UPSTREAM_LIMITS: 'none',
      PORTICO_OAUTH_CIMD_CA_FILE: '/etc/ssl/firm.pem',
      PORTICO_ENCRYPTION_PREVIOUS_KEYS_FILE: '/run/secrets/old-keys',
      PORTICO_TEST_POSTGRES_URL: 'postgres://localhost/test',
      PORTICO_REQUIRE_POSTGRES: '1',
      PORTICO_CHROMIUM: '/usr/bin/chromium',
      PORTICO_UPSTREAM_SPECS_DIR: '/specs',
      PORTICO_PRISM_ONLY: '1',
      HOME: '/root',
    };
    expect(unknownVariables(env)).toEqual({ refused: [], warnings: [] });
  });
});
