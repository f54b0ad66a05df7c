import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

/** One browser asset, served under a name carrying its content hash, so that it can be cached for a year. */
export interface Asset {
  /** `app.3f2a9c1b0d.js` */
  name: string;
  type: string;
  body: Buffer;
  gzip: Buffer;
}

export interface DashboardAssets {
  script: Asset;
  style: Asset;
  byName: ReadonlyMap<string, Asset>;
}

function asset(file: string, text: string): Asset {
  const body = Buffer.from(text);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return {
    name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`,
    type: file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
    body,
    gzip: gzipSync(body, { level: 9 }),
  };
}

/**
 * The browser assets `pnpm build` wrote to dist/public/ (two folders above dist/routes/dashboard/, where this module is
 * built to); from source (tests), bundled now with esbuild (a development dependency) by scripts/dashboard-assets.mjs.
 */
export async function loadDashboardAssets(): Promise<DashboardAssets> {
  let files: Record<'app.js' | 'style.css', string>;
  if (import.meta.url.endsWith('.ts')) {
    const script = new URL('../../../scripts/dashboard-assets.mjs', import.meta.url).href;
    const { bundleDashboard } = (await import(script)) as { bundleDashboard(): Promise<Record<'app.js' | 'style.css', string>> };
    files = await bundleDashboard();
  } else {
    const dir = new URL('../../public/', import.meta.url);
    files = {
      'app.js': await readFile(new URL('app.js', dir), 'utf8'),
      'style.css': await readFile(new URL('style.css', dir), 'utf8'),
    };
  }
  const script = asset('app.js', files['app.js']);
  const style = asset('style.css', files['style.css']);
  return { script, style, byName: new Map([script, style].map((a) => [a.name, a])) };
}
