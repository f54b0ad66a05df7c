// The options of run.mjs and the settings they give every measurement.
import { parseArgs } from 'node:util';

export const USAGE = `node bench/run.mjs [--smoke | --quick] [--duration S] [--warmup S] [--prime S] [--rounds N]
                   [--connections 1,50] [--pairs N] [--retries N] [--no-profile] [--log-level info] [--wait-quiet S] [--out FILE]`;

/** What `--help` prints: the usage and what each option does (the defaults are those of a full run). */
export const HELP = `usage: ${USAGE}

Measures the gateway on loopback and rewrites the report block of docs/performance.md (pnpm bench builds first).

  --smoke           everything once, in a minute or two, into bench/results/smoke.md: checks the bench runs
  --quick           shorter loads and fewer pairs and starts
  --duration S      seconds of load per scenario (5)
  --warmup S        seconds of load before each scenario, not measured (1)
  --prime S         seconds of load on every process before anything is measured (6)
  --rounds N        rounds of every scenario; the report keeps the median (1)
  --connections L   connection counts, comma-separated (1,50)
  --pairs N         paired slices per operation, and sets of one process, two workers and two processes (8)
  --retries N       repeats of a scenario disturbed by other processes (2)
  --no-profile      skip the CPU profiles
  --log-level L     the gateways' PORTICO_LOG_LEVEL (info)
  --wait-quiet S    seconds in all to wait for an idle machine before measuring (180)
  --out FILE        the Markdown file whose bench block is rewritten (docs/performance.md)
  --help            this text
`;

/** The numeric options and what each takes: seconds, a count from 0, or a count from 1. */
const NUMERIC = /** @type {const} */ ({
  duration: 'seconds',
  warmup: 'seconds',
  prime: 'seconds',
  'wait-quiet': 'seconds',
  retries: 'count',
  rounds: 'positive',
  pairs: 'positive',
});
const NUMBER_FORMS = { seconds: /^\d+(\.\d+)?$/, count: /^\d+$/, positive: /^[1-9]\d*$/ };
const NUMBER_WORDS = { seconds: 'a number of seconds', count: 'a whole number', positive: 'a whole number from 1' };

/**
 * @typedef {object} Settings
 * @property {'full' | 'quick' | 'smoke'} mode
 * @property {number} duration seconds of load per scenario
 * @property {number} warmup seconds of load before each scenario, not measured
 * @property {number} prime seconds of load on every process before anything is measured (JIT warm-up)
 * @property {number} retries repeats of a scenario disturbed by other processes
 * @property {number} rounds rounds of every scenario (the report keeps the median)
 * @property {number[]} connections connection counts, each a set of scenarios
 * @property {number} pairs paired slices (Koa + got hop, REST, MCP) per operation at the highest connection count, and
 *   pairs of slices of one process and two workers (`serve --workers 1` and `2`)
 * @property {number} pairSeconds seconds of load per slice of a pair
 * @property {number} pairsPerStart pairs measured on one start of a new hop and a new gateway
 * @property {string} logLevel the gateways' PORTICO_LOG_LEVEL
 * @property {number} waitQuietMs total budget for waiting for an idle machine
 * @property {boolean} profile whether to take the CPU profiles
 * @property {number} starts start-ups measured per configuration
 * @property {number} samples tools/list and describe_method calls measured
 * @property {number} openapiRuns OpenAPI documents built per plugin after the first
 * @property {string} out the Markdown file whose bench block is rewritten
 */

/**
 * @param {string[]} argv
 * @returns {Settings | 'help'} the settings, or 'help' when --help asked for the usage
 */
export function readSettings(argv) {
  const { values: args } = parse(argv);
  if (args.help) return 'help';
  for (const [name, kind] of Object.entries(NUMERIC)) {
    const value = /** @type {string | undefined} */ (args[/** @type {keyof typeof args} */ (name)]);
    if (value !== undefined && !(/** @type {RegExp} */ (NUMBER_FORMS[kind]).test(value))) {
      throw new Error(`--${name} takes ${NUMBER_WORDS[kind]}, not '${value}'\nusage: ${USAGE}`);
    }
  }
  if (!/^[1-9]\d*(,[1-9]\d*)*$/.test(args.connections)) {
    throw new Error(`--connections takes connection counts separated by commas, not '${args.connections}'\nusage: ${USAGE}`);
  }
  // --smoke proves that everything runs and the report renders, in a minute or two: its figures mean nothing.
  const mode = args.smoke ? 'smoke' : args.quick ? 'quick' : 'full';
  /** @param {string | undefined} value @param {Record<typeof mode, number>} byMode */
  const number = (value, byMode) => (value === undefined ? byMode[mode] : Number(value));
  return {
    mode,
    duration: number(args.duration, { full: 5, quick: 2, smoke: 1 }),
    warmup: number(args.warmup, { full: 1, quick: 1, smoke: 0 }),
    // The gateway needs several seconds of load before its throughput settles (measured: ~2× between the first and
    // the fifth second).
    prime: number(args.prime, { full: 6, quick: 3, smoke: 0 }),
    retries: number(args.retries, { full: 2, quick: 2, smoke: 0 }),
    rounds: Number(args.rounds),
    connections: args.connections.split(',').map(Number),
    pairs: number(args.pairs, { full: 8, quick: 4, smoke: 1 }),
    pairSeconds: { full: 3, quick: 2, smoke: 1 }[mode],
    pairsPerStart: { full: 2, quick: 2, smoke: 1 }[mode],
    logLevel: args['log-level'],
    waitQuietMs: number(args['wait-quiet'], { full: 180, quick: 180, smoke: 0 }) * 1000,
    profile: !args['no-profile'],
    starts: { full: 5, quick: 3, smoke: 1 }[mode],
    samples: { full: 300, quick: 100, smoke: 20 }[mode],
    openapiRuns: { full: 100, quick: 30, smoke: 5 }[mode],
    out: args.out ?? (mode === 'smoke' ? 'bench/results/smoke.md' : 'docs/performance.md'),
  };
}

/** @param {string[]} argv */
function parse(argv) {
  try {
    return parseArgs({
      args: argv,
      options: {
        smoke: { type: 'boolean', default: false },
        quick: { type: 'boolean', default: false },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        prime: { type: 'string' },
        'wait-quiet': { type: 'string' },
        retries: { type: 'string' },
        rounds: { type: 'string', default: '1' },
        connections: { type: 'string', default: '1,50' },
        pairs: { type: 'string' },
        'no-profile': { type: 'boolean', default: false },
        'log-level': { type: 'string', default: 'info' },
        out: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    });
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : error}\nusage: ${USAGE}`);
  }
}
