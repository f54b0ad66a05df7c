import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The parts of a compose file the tests read. */
export interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file?: string }>;
  networks?: Record<string, { ipam?: { config?: Array<{ subnet?: string }> } }>;
}

export interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  secrets?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string; pids?: number } } };
}

export function parseCompose(text: string): ComposeFile {
  return parse(text) as ComposeFile;
}

/** `${NAME:-default}` and `${NAME:?message}` as compose reads them, from an empty shell environment. */
export function interpolate(value: string, shell: Record<string, string> = {}): string {
  return value.replace(/\$\{(\w+)(?::?([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    const set = shell[name];
    if (set) return set;
    if (kind === '?') throw new Error(`compose needs ${name}: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

/**
 * The environment a gateway of the compose file starts with, its secrets written as files into `dir` (the paths under
 * /run/secrets pointed there): `values` by secret name, else a fresh encryption key or a random value.
 */
export function composeGatewayEnv(text: string, dir: string, values: Record<string, string> = {}): Record<string, string> {
  const compose = parseCompose(text);
  const gateway = compose.services.gateway1;
  if (!gateway?.environment) throw new Error('compose.yaml has no gateway1 with an environment');
  const env: Record<string, string> = {};
  for (const [name, raw] of Object.entries(gateway.environment)) {
    let value = interpolate(String(raw));
    const secret = /^\/run\/secrets\/([\w.-]+)$/.exec(value)?.[1];
    if (secret) {
      const file = join(dir, secret);
      const content =
        values[secret] ?? (secret === 'encryption_key' ? randomBytes(32).toString('base64') : randomBytes(16).toString('hex'));
      writeFileSync(file, `${content}\n`, { mode: 0o600 });
      value = file;
    }
    env[name] = value;
  }
  return env;
}
