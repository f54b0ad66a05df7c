// The machine, the versions and the settings of a run: the first table of the report.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { packageVersions, pluginDist, ROOT } from '../workspace.mjs';

/** @param {string[]} argv */
function git(argv) {
  try {
    return execFileSync('git', argv, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** @param {import('./settings.mjs').Settings} settings */
export function environment(settings) {
  // Set by pnpm when it runs a package script.
  const { npm_config_user_agent: ua = '', npm_lifecycle_event: event, npm_lifecycle_script: lifecycleScript } = process.env;
  const argv = process.argv.slice(2).join(' ');
  const viaPnpm = event === 'bench';
  return {
    date: new Date().toISOString(),
    command: viaPnpm ? `pnpm bench${argv ? ` ${argv}` : ''}` : `node bench/run.mjs${argv ? ` ${argv}` : ''}`,
    script: viaPnpm ? lifecycleScript : undefined,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: os.totalmem() / 2 ** 30,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    pnpm: /pnpm\/(\S+)/.exec(ua)?.[1],
    commit: git(['rev-parse', '--short', 'HEAD']),
    dirty: Boolean(git(['status', '--porcelain', '--untracked-files=no'])),
    packages: packageVersions(),
    settings: {
      mode: settings.mode,
      duration: settings.duration,
      warmup: settings.warmup,
      prime: settings.prime,
      retries: settings.retries,
      rounds: settings.rounds,
      connections: settings.connections,
      logLevel: settings.logLevel,
    },
    /** How busy the machine was (0–1) just before the run, after waiting for it to quiet down. */
    busyBeforeRun: Number.NaN,
  };
}

/**
 * The plugin code loaded at start-up, per installed plugin (the sandbox is loaded only by --sandbox).
 * @param {string[]} installed
 */
export function installedPluginCode(installed) {
  return installed.map((name) => {
    const dist = pluginDist(name);
    const bytes = readdirSync(dist)
      .filter((f) => f.endsWith('.js'))
      .reduce((a, f) => a + statSync(join(dist, f)).size, 0);
    return { name, bytes };
  });
}
