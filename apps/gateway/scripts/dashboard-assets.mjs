#!/usr/bin/env node
// The dashboard's browser assets: one ES module (src/routes/dashboard/client.ts with uPlot, minified) and one stylesheet
// (src/routes/dashboard/style.css with uPlot's), bundled by esbuild. `pnpm build` writes them to dist/public/; a gateway
// running from source (tests) bundles them in memory at start-up through `bundleDashboard`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {Promise<{ 'app.js': string; 'style.css': string }>} */
export async function bundleDashboard() {
  const common = { bundle: true, minify: true, write: false, logLevel: 'warning', legalComments: 'eof' };
  // uPlot's notice is a plain comment, which minification drops: it is kept as a banner (MIT asks for it).
  const notice = '/*! Includes uPlot (https://github.com/leeoniya/uPlot), MIT License, Copyright (c) Leon Sorokin */';
  const js = await build({
    ...common,
    entryPoints: [join(root, 'src/routes/dashboard/client.ts')],
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    banner: { js: notice },
  });
  const css = await build({
    ...common,
    stdin: {
      contents: "@import 'uplot/dist/uPlot.min.css';\n@import './style.css';\n",
      resolveDir: join(root, 'src/routes/dashboard'),
      loader: 'css',
    },
    target: 'chrome100',
    banner: { css: notice },
  });
  return { 'app.js': js.outputFiles[0].text, 'style.css': css.outputFiles[0].text };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(root, 'dist/public');
  mkdirSync(out, { recursive: true });
  const assets = await bundleDashboard();
  for (const [name, text] of Object.entries(assets)) writeFileSync(join(out, name), text);
  const kib = Object.values(assets).reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1024;
  console.log(`@portico/gateway: dashboard assets → dist/public (${kib.toFixed(0)} KiB before compression)`);
}
