import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Releases do what the changesets say: a minor release of @portico/core (a peer dependency of every plugin) must not
 * turn the plugins' own bumps into majors. This rests on `.changeset/config.json`
 * (`onlyUpdatePeerDependentsWhenOutOfRange`) together with the plugins' peer range on core (`>=0.1.0 <1.0.0`, which a
 * minor 0.x release of core stays inside); without either, `changeset status` plans every plugin as 1.0.0.
 */

type Bump = 'none' | 'patch' | 'minor' | 'major';
interface ReleasePlan {
  changesets: { id: string; releases: { name: string; type: Bump }[] }[];
  releases: { name: string; type: Bump; oldVersion: string; newVersion: string }[];
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHANGESET_BIN = createRequire(join(ROOT, 'package.json')).resolve('@changesets/cli/bin.js');
const ORDER: Bump[] = ['none', 'patch', 'minor', 'major'];

function git(cwd: string, ...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** `changeset status` compares with the base branch, so it needs git and that branch. */
const baseBranch = (JSON.parse(readFileSync(join(ROOT, '.changeset/config.json'), 'utf8')) as { baseBranch: string }).baseBranch;
const gitAvailable = git(ROOT, '--version') !== undefined;
const inCheckout = gitAvailable && git(ROOT, 'rev-parse', '--verify', '--quiet', baseBranch) !== undefined;
if (!inCheckout) {
  console.warn(
    `release-plan.test: skipping the check of this repository's changesets: ${
      gitAvailable ? `no "${baseBranch}" branch here (not a git checkout of Portico)` : 'git is not installed'
    }`,
  );
}

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function changesetStatus(cwd: string): ReleasePlan {
  const dir = mkdtempSync(join(tmpdir(), 'portico-release-plan-'));
  temporary.push(dir);
  const output = join(dir, 'status.json');
  execFileSync(process.execPath, [CHANGESET_BIN, 'status', '--output', output], { cwd, stdio: 'pipe' });
  return JSON.parse(readFileSync(output, 'utf8')) as ReleasePlan;
}

/** The bump each package's own changesets ask for (the highest of them). */
function requested(plan: ReleasePlan): Map<string, Bump> {
  const bumps = new Map<string, Bump>();
  for (const changeset of plan.changesets) {
    for (const { name, type } of changeset.releases) {
      const current = bumps.get(name) ?? 'none';
      if (ORDER.indexOf(type) > ORDER.indexOf(current)) bumps.set(name, type);
    }
  }
  return bumps;
}

/** A throw-away git repository holding this workspace's manifests, changesets config and the given changesets. */
function workspaceCopy(changesets: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'portico-release-workspace-'));
  temporary.push(dir);
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json']) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  for (const parent of ['packages', 'apps']) {
    for (const name of readdirSync(join(ROOT, parent))) {
      const manifest = join(parent, name, 'package.json');
      try {
        cpSync(join(ROOT, manifest), join(dir, manifest));
      } catch {
        // not a package
      }
    }
  }
  const run = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  run('init', '--quiet', `--initial-branch=${baseBranch}`);
  run('add', '.');
  run('-c', 'user.name=portico-test', '-c', 'user.email=test@portico.invalid', 'commit', '--quiet', '--no-gpg-sign', '-m', 'manifests');
  for (const [id, text] of Object.entries(changesets)) writeFileSync(join(dir, '.changeset', `${id}.md`), text);
  return dir;
}

describe('release plan', () => {
  it.skipIf(!inCheckout)("gives every package of this repository's changesets the bump they ask for, none major", () => {
    const plan = changesetStatus(ROOT);
    const asked = requested(plan);
    expect(plan.releases.length).toBeGreaterThan(0);
    for (const release of plan.releases) {
      expect(release.type, `${release.name} (${release.oldVersion} → ${release.newVersion})`).not.toBe('major');
      if (asked.has(release.name)) expect(release.type, release.name).toBe(asked.get(release.name));
    }
  });

  it.skipIf(!gitAvailable)('leaves every plugin on its own bump when core alone has a minor changeset', () => {
    const dir = workspaceCopy({ 'core-minor': '---\n"@portico/core": minor\n---\n\nA new core feature.\n' });
    const plan = changesetStatus(dir);
    const types = Object.fromEntries(plan.releases.map((release) => [release.name, release.type]));
    expect(types['@portico/core']).toBe('minor');
    // The gateway depends on core (not as a peer): it follows with a patch.
    expect(types['@portico/gateway']).toBe('patch');
    for (const [name, type] of Object.entries(types)) {
      if (name.startsWith('@portico/plugin-')) expect(type, name).not.toBe('major');
    }
    expect(Object.values(types)).not.toContain('major');
  });
});
