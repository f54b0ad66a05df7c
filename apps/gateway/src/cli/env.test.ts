import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../config/environment.js';
import { main } from './index.js';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line), stdin: () => '' };
  const code = await main(argv, { PORTICO_LOG_LEVEL: 'silent' }, io);
  return { code, out, err };
}

describe('portico env', () => {
  it('lists each variable the gateway reads once, with its meaning and default, without markdown', async () => {
    const { code, out } = await run(['env']);
    expect(code).toBe(0);
    expect(out).toHaveLength(ENVIRONMENT.length);
    expect(out[0]).toBe(`${'PORTICO_HOST'.padEnd(30)} Interface to listen on (0.0.0.0 to accept remote clients) (default: 127.0.0.1)`);
    expect(out.find((line) => line.startsWith('PORTICO_PORT '))).toMatch(/\(default: 8787\)$/);
    expect(out.join('\n')).not.toContain('`');
  });

  it('prints the table of docs/configuration.md with --markdown, and refuses other options', async () => {
    const table = await run(['env', '--markdown']);
    const lines = table.out.join('\n').split('\n');
    expect(lines[0]).toMatch(/^\| Variable +\| Default +\| Meaning +\|$/);
    expect(lines).toHaveLength(ENVIRONMENT.length + 2);
    expect(table.out.join('\n')).toContain('| `PORTICO_PORT` ');
    const wrong = await run(['env', '--json']);
    expect(wrong.code).toBe(2);
    expect(wrong.err.join('\n')).toContain('unknown option --json');
  });

  it('says the defaults of serve’s options as the configuration has them', async () => {
    const { out } = await run(['serve', '--help']);
    expect(out.join('\n')).toContain('overrides PORTICO_PORT, default 8787');
    expect(out.join('\n')).toContain('overrides PORTICO_HOST, default 127.0.0.1');
  });
});
