import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'portico-operations-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line), stdin: () => '' };
  const code = await main(argv, { PORTICO_LOG_LEVEL: 'silent', PORTICO_DATA_DIR: dataDir, ...env }, io);
  return { code, out, err };
}

describe('portico operations', () => {
  it('lists the operations of the six first-party plugins, each with its REST route and summary, without a database', async () => {
    const { code, out } = await run(['operations']);
    expect(code).toBe(0);
    const headings = out.filter((line) => !line.startsWith(' '));
    expect(headings).toEqual([
      'Lawmatics (lawmatics, 86 operations)',
      'QuickBooks (quickbooks, 67 operations)',
      'Clio Manage (clio, 282 operations)',
      'Notion (notion, 20 operations)',
      'Slack (slack, 18 operations)',
      'CallRail (callrail, 32 operations)',
    ]);
    expect(out).toHaveLength(6 + 505);
    expect(out.find((line) => line.trimStart().startsWith('send_message '))).toMatch(
      /^ {2}send_message +POST \/channels\/:channel\/messages +Send a Slack message/,
    );
    expect(existsSync(join(dataDir, 'portico.db'))).toBe(false); // nothing created
  });

  it('lists one integration, as Markdown with --markdown, and names the installed ones for a service it does not know', async () => {
    const notion = await run(['operations', 'notion', '--markdown']);
    expect(notion.code).toBe(0);
    const lines = notion.out.join('\n').split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '## Notion (`notion`, 20 operations)',
      '',
      '| operation | REST | what it does |',
      '| --- | --- | --- |',
    ]);
    expect(lines).toHaveLength(4 + 20);
    expect(lines).toContain("| `get_page` | `GET /pages/:page_id` | Get a page's title and properties (its metadata only) |");

    const unknown = await run(['operations', 'notoin']);
    expect(unknown.code).toBe(2);
    expect(unknown.err.join('\n')).toBe(
      'portico: no integration "notoin" is installed (installed: lawmatics, quickbooks, clio, notion, slack, callrail)',
    );
  });

  it('lists only the plugins PORTICO_PLUGINS names, under the service names they are renamed to', async () => {
    const { code, out } = await run(['operations'], { PORTICO_PLUGINS: 'chat', PORTICO_SERVICE_RENAMES: 'slack=teamchat' });
    expect(code).toBe(0);
    expect(out[0]).toBe('Slack (teamchat, 18 operations)');
    expect(out).toHaveLength(1 + 18);
  });
});
