import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PrismAdjustment } from './prism-exceptions.test-support.js';

// Test-only helpers of the Prism check (prism.e2e.test.ts): Stoplight's Prism mocking an upstream's own published spec,
// and a recording proxy in front of it that tells which requests Prism refused and why.

const here = dirname(fileURLToPath(import.meta.url));
const repository = resolve(here, '../../../..');

/**
 * The upstream specs, read where they are kept beside the repository (never copied into it): ../shared/upstream-specs,
 * or one level further up from a git worktree; PORTICO_UPSTREAM_SPECS_DIR names another place.
 */
export const SPECS_DIR =
  process.env.PORTICO_UPSTREAM_SPECS_DIR ??
  [resolve(repository, '../shared/upstream-specs'), resolve(repository, '../../shared/upstream-specs')].find((dir) => existsSync(dir)) ??
  resolve(repository, '../shared/upstream-specs');

/** Why the check cannot run here (undefined when it can); with PORTICO_REQUIRE_PRISM=1 a missing spec is an error. */
export function specsProblem(files: string[]): string | undefined {
  const missing = files.filter((file) => !existsSync(join(SPECS_DIR, file)));
  if (missing.length === 0) return undefined;
  const problem = `the upstream specs are not at ${SPECS_DIR} (missing ${missing.join(', ')}; set PORTICO_UPSTREAM_SPECS_DIR)`;
  if (process.env.PORTICO_REQUIRE_PRISM === '1') throw new Error(`${problem}, and PORTICO_REQUIRE_PRISM=1 makes the Prism check mandatory`);
  console.warn(`skipping the Prism check: ${problem}`);
  return problem;
}

export interface PrismMock {
  url: string;
  close(): Promise<void>;
}

/** `prism mock <spec>` on a free loopback port; resolves once Prism says it is listening. */
export async function startPrism(specFile: string): Promise<PrismMock> {
  const port = await freePort();
  const bin = resolve(repository, 'node_modules/.bin/prism');
  const child: ChildProcess = spawn(bin, ['mock', '--host', '127.0.0.1', '--port', String(port), join(SPECS_DIR, specFile)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
  });
  let output = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`Prism did not start on ${specFile} within 90 s:\n${output.slice(-2000)}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`Prism exited (${code}) on ${specFile}:\n${output.slice(-2000)}`));
    });
  });
  // Keep draining Prism's log so that its pipe never fills.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

export interface Exchange {
  method: string;
  path: string;
  status: number;
  /** Prism's reason when it refused the request (its problem type and the validation messages). */
  refusal?: string;
  /** Each thing Prism found wrong with the request, one message each. */
  complaints: string[];
  /** The adjustments (prism-exceptions.test-support.ts) the proxy made to the request before Prism saw it. */
  adjusted: string[];
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/** Prism's problem types that mean "this request is not what the spec accepts". */
const REFUSALS = ['UNPROCESSABLE_ENTITY', 'NO_PATH_MATCHED_ERROR', 'NO_METHOD_MATCHED_ERROR', 'UNAUTHORIZED', 'INVALID_CONTENT_TYPE'];

/**
 * A proxy to Prism that strips `stripPrefix` from each path (the spec's server path, which Prism's mock does not
 * serve under), applies the listed adjustments, and records every exchange with Prism's reason for a refusal.
 */
export async function startRecordingProxy(target: string, stripPrefix = '', adjustments: PrismAdjustment[] = []): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const original = req.url ?? '/';
      const path = stripPrefix && original.startsWith(stripPrefix) ? original.slice(stripPrefix.length) || '/' : original;
      const headers = { ...req.headers };
      delete headers.host;
      // Recorded as it arrives, so that a request Prism never answers still counts as sent.
      const exchange: Exchange = {
        method: req.method ?? 'GET',
        path: path.split('?')[0] as string,
        status: 0,
        complaints: [],
        adjusted: [],
      };
      exchanges.push(exchange);
      const forwarded = { method: req.method ?? 'GET', path, headers };
      for (const adjustment of adjustments) if (adjustment.apply(forwarded)) exchange.adjusted.push(adjustment.reason);
      const upstream = httpRequest(
        `${target}${forwarded.path}`,
        { method: req.method ?? 'GET', headers, timeout: 8_000, insecureHTTPParser: true },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(body).toString();
            exchange.status = answer.statusCode ?? 0;
            const type = /prism\/errors#([A-Z_]+)/.exec(text)?.[1];
            if (type && REFUSALS.includes(type)) {
              try {
                const problem = JSON.parse(text) as { detail?: string; validation?: Array<{ location?: string[]; message?: string }> };
                exchange.complaints = (problem.validation ?? []).map((v) => `${(v.location ?? []).join('.')} ${v.message ?? ''}`);
                if (exchange.complaints.length === 0) exchange.complaints = [problem.detail ?? ''];
              } catch {
                exchange.complaints = [text.slice(0, 300)];
              }
              exchange.refusal = `${type}: ${exchange.complaints.join('; ')}`;
            }
            // Prism answers some invalid requests all the same, naming what is wrong in its sl-violations header.
            const violations = answer.headers['sl-violations'];
            if (!exchange.refusal && typeof violations === 'string') {
              // Only what is wrong with the request: Prism also checks the answer it made up against the spec.
              // Past a number of them Prism sends a plain "Too many violations…" instead of the list, which says nothing of
              // where they are: the answer's own refusal (above) is then all there is to read.
              let listed: Array<{ severity?: string; location?: string[]; message?: string }> = [];
              try {
                listed = JSON.parse(violations) as typeof listed;
              } catch {
                listed = [];
              }
              const errors = (Array.isArray(listed) ? listed : []).filter((v) => v.severity === 'Error' && v.location?.[0] === 'request');
              if (errors.length > 0) {
                exchange.complaints = errors.map((v) => `${(v.location ?? []).join('.')} ${v.message ?? ''}`);
                exchange.refusal = `VIOLATIONS: ${exchange.complaints.join('; ')}`;
              }
            }
            // Prism sends both Content-Length and Transfer-Encoding on some answers: pass the body on with its length alone.
            const { 'transfer-encoding': _chunked, 'content-length': _length, ...passed } = answer.headers;
            res.writeHead(answer.statusCode ?? 502, passed);
            res.end(Buffer.concat(body));
          });
        },
      );
      upstream.on('timeout', () => upstream.destroy(new Error('Prism did not answer within 8 s')));
      upstream.on('error', (error) => {
        exchange.status = 502;
        exchange.complaints = [`proxy: ${error.message}`];
        exchange.refusal = `proxy: ${error.message}`;
        res.writeHead(502);
        res.end();
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
