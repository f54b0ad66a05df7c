import { describe, expect, it } from 'vitest';
import { loadPg } from './pg.js';

// pg is an optional peer dependency of @portico/core: a project that points the gateway at PostgreSQL without having
// installed it is told what to install, not shown a bare "Cannot find module".
describe('loading node-postgres', () => {
  const missing = (name: string) => {
    throw Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- /app/node_modules/@portico/core`), {
      code: 'MODULE_NOT_FOUND',
    });
  };

  it('says to install pg when it is not installed', () => {
    expect(() => loadPg(missing)).toThrow(/needs the pg package .*npm install pg/);
  });

  it('passes on any other failure of pg itself unchanged', () => {
    const broken = () => {
      throw Object.assign(new Error("Cannot find module 'pg-protocol'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadPg(broken)).toThrow("Cannot find module 'pg-protocol'");
  });

  it('loads the installed pg', () => {
    expect(typeof loadPg().Pool).toBe('function');
  });
});
