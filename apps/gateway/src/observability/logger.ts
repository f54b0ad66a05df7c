import { currentTrace, type Logger } from '@portico/core';
import { pino } from 'pino';
import type { GatewayConfig } from '../config/load.js';

/** Access-line characters collected before one write to stdout: one write per batch, not one per line. */
const LOG_BUFFER_CHARS = 4096;
/** Longest an access line waits in that buffer, ms: at low traffic, lines still reach stdout at once to the eye. */
const LOG_FLUSH_MS = 100;

/** Where log lines go: `stream` for pino's lines, `access` for the access lines (the same stream, or batched into it). */
interface LogStreams {
  stream: pino.DestinationStream;
  access: { write(line: string): unknown };
}

/**
 * stdout with the access lines written in batches: a write per line (an `fs.write` on libuv's thread pool, a thread
 * woken and a callback) cost more CPU than anything else a request does besides its two HTTP exchanges. Access lines
 * wait here until {@link LOG_BUFFER_CHARS} characters are collected or the next tick of a {@link LOG_FLUSH_MS} timer,
 * then go to the stream as one string. Every other line (start-up, warnings, errors, audit export) is written at once,
 * after the access lines waiting before it, so the order stays the order of writing; at exit, whatever the exit (a
 * signal, `process.exit`, an uncaught error), the waiting lines are handed over before pino writes out what its stream
 * holds.
 *
 * The stream writes synchronously, as node writes stdout to a file or a pipe on Linux: one `write` per batch, on the
 * event loop. An asynchronous stream (`sync: false`) had a batch in flight on the thread pool while the process exited,
 * and pino's exit handler wrote the lines after it first: the batch came out after them, or not at all if the thread
 * had not written it yet. Measured against it in paired slices (REST POST, 50 connections): 0.993× of the hop's
 * throughput against 0.977×, 485 against 490 µs of CPU per request (docs/performance.md).
 */
function batchedStdout(): LogStreams {
  const destination = pino.destination({ sync: true });
  let lines: string[] = [];
  let chars = 0;
  const release = () => {
    if (lines.length === 0) return;
    const text = lines.length === 1 ? (lines[0] as string) : lines.join('');
    lines = [];
    chars = 0;
    destination.write(text);
  };
  const timer = setInterval(release, LOG_FLUSH_MS).unref();
  releasedAtExit.add(release);
  hookExit();
  destination.once('close', () => {
    clearInterval(timer);
    releasedAtExit.delete(release);
  });
  // pino writes into this front of the destination (its public stream interface: write, and flush for
  // `logger.flush()`), which hands the waiting access lines over first
  const stream = {
    write(line: string) {
      release();
      return destination.write(line);
    },
    flush(cb?: (error?: Error) => void) {
      release();
      destination.flush(cb);
    },
    flushSync() {
      release();
      destination.flushSync();
    },
  };
  return {
    stream,
    access: {
      write(line: string) {
        lines.push(line);
        chars += line.length;
        if (chars >= LOG_BUFFER_CHARS) release();
        return true;
      },
    },
  };
}

/** The batches to hand over at exit: one listener for every logger of the process, however many there are. */
const releasedAtExit = new Set<() => void>();
let exitHooked = false;

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  // before pino's own exit handler, which writes its stream's buffer synchronously
  process.prependListener('exit', () => {
    for (const release of releasedAtExit) release();
  });
}

/** What pino redacts, by path, whatever logged it. */
const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'token',
  '*.token',
  'key',
  '*.key',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'secret',
  '*.secret',
  'err.options',
] as const;
/** The top-level names those paths cover: a child's bindings of these names keep pino's own (redacting) line. */
const REDACTED_NAMES = new Set(REDACT_PATHS.map((path) => path.split('.')[0]).filter((name) => name !== '*'));

/** Structured JSON logs. Anything that could carry a secret is redacted by path, whatever logged it. */
export function createLogger(level: GatewayConfig['logLevel'], destination?: NodeJS.WritableStream) {
  const { stream, access } = destination ? { stream: destination, access: destination } : batchedStdout();
  const logger = pino(
    {
      level,
      base: { app: 'portico' },
      // every line written while answering a request names its W3C trace id (server/middleware.ts)
      mixin: () => {
        const trace = currentTrace();
        return trace ? { traceId: trace.traceId } : {};
      },
      redact: {
        paths: [...REDACT_PATHS],
        censor: '[redacted]',
      },
    },
    stream,
  );
  // The access line (server/middleware.ts) has fixed fields, none of them a redacted name, and names its trace itself:
  // it is written to the same stream, at the same level, as the line pino would write without the redaction pass and
  // the mixin, built by hand: the same JSON (logger.test.ts compares the two) without pino's serialiser.
  accessLoggers.set(logger, { access, prefix: '', writer: accessLine(logger, access, '') });
  return logger;
}

/**
 * `logger.child(bindings)` whose access lines are still built by hand: pino writes a child's bindings after `base`,
 * in their order, and so does this (a worker's `worker` and `pid`). Bindings that are not plain strings and numbers, or
 * that have a redacted name, leave the child's access lines to pino, which redacts them.
 */
export function childLogger<L extends Logger & { child(bindings: object): L }>(
  logger: L,
  bindings: Record<string, string | number | undefined>,
): L {
  const child = logger.child(bindings);
  const parent = accessLoggers.get(logger);
  if (!parent) return child;
  let prefix = parent.prefix;
  for (const name in bindings) {
    const value = bindings[name];
    if (value === undefined) continue;
    if (REDACTED_NAMES.has(name) || (typeof value !== 'string' && typeof value !== 'number')) return child;
    prefix += `,${JSON.stringify(name)}:${jsonValue(value)}`;
  }
  accessLoggers.set(child, { access: parent.access, prefix, writer: accessLine(child, parent.access, prefix) });
  return child;
}

/** What the access line of a request holds: strings and numbers; an undefined field is left out, as pino leaves it. */
export type AccessFields = Record<string, string | number | undefined>;

/** Writes one access line: `info` of a logger whose only use is `info(fields, msg)`. */
export interface AccessLogger {
  info(fields: AccessFields, msg: string): void;
}

const INFO = 30;

/** A string or number as pino writes it: strings through JSON.stringify, a non-finite number as null. */
const jsonValue = (value: string | number) =>
  typeof value === 'number' ? (Number.isFinite(value) ? String(value) : 'null') : JSON.stringify(value);

/**
 * pino's line for `logger.info(fields, msg)` with `base: { app: 'portico' }`: `level`, `time`, `app`, a child's
 * bindings (`prefix`, already JSON), the fields in their order, `msg`.
 */
function accessLine(logger: Logger & { levelVal?: number }, stream: { write(line: string): unknown }, prefix: string): AccessLogger {
  return {
    info(fields, msg) {
      if ((logger.levelVal ?? INFO) > INFO) return;
      let line = `{"level":30,"time":${Date.now()},"app":"portico"${prefix}`;
      for (const name in fields) {
        const value = fields[name];
        if (value === undefined) continue;
        line += `,"${name}":${jsonValue(value)}`;
      }
      stream.write(`${line},"msg":${JSON.stringify(msg)}}\n`);
    },
  };
}

/** Per logger made here (or by {@link childLogger}): where its access lines go, its bindings as JSON, its writer. */
const accessLoggers = new WeakMap<object, { access: { write(line: string): unknown }; prefix: string; writer: AccessLogger }>();

/** The logger that writes `logger`'s access lines: the hand-built one when {@link createLogger} made it, else itself. */
export function accessLogger(logger: Logger): AccessLogger {
  return accessLoggers.get(logger)?.writer ?? (logger as AccessLogger);
}
