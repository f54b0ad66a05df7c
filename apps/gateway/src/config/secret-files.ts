import { readFileSync } from 'node:fs';

/** The variables that may be given as a file instead (`<NAME>_FILE`): the secrets. */
export const SECRET_NAME = /^PORTICO_(ENCRYPTION_KEY|ENCRYPTION_PREVIOUS_KEYS|DATABASE_URL|[A-Z0-9_]+_CLIENT_SECRET)$/;

/**
 * Secrets from files (Docker and Kubernetes secrets): for each secret variable `NAME`, `NAME_FILE` names a file whose
 * content, trimmed, is the value. Read once, here. Returns the environment with the values filled in, and what is
 * wrong (a file that cannot be read or is empty, or both `NAME` and `NAME_FILE` set) — never a file's content.
 */
export function readSecretFiles(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; problems: string[] } {
  const out: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const [fileVar, path] of Object.entries(env)) {
    if (!fileVar.endsWith('_FILE') || !path) continue;
    const name = fileVar.slice(0, -'_FILE'.length);
    if (!SECRET_NAME.test(name)) continue;
    if (env[name]) {
      problems.push(`${name} and ${fileVar} are both set: give the secret one way`);
      continue;
    }
    let value: string;
    try {
      value = readFileSync(path, 'utf8').trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(
        `${fileVar}: cannot read ${path} (${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable')})`,
      );
      continue;
    }
    if (!value) problems.push(`${fileVar}: ${path} is empty`);
    else out[name] = value;
  }
  return { env: out, problems };
}
