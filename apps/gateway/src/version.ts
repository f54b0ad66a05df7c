import { readFileSync } from 'node:fs';

/** The gateway package's version, read once from its package.json (works from src and from dist). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
