// Number formats and tables of the report. A figure that is not a number (missing, or null from JSON) shows as '–'.

/** @param {number | null | undefined} x @returns {x is number} */
const finite = (x) => typeof x === 'number' && Number.isFinite(x);

/** @param {number | null | undefined} x */
export const int = (x) => (finite(x) ? Math.round(x).toLocaleString('en-US') : '–');
/** @param {number | null | undefined} x */
export const ms = (x, d = 2) => (finite(x) ? x.toFixed(d) : '–');
/** @param {number | null | undefined} x */
export const pct = (x, d = 0) => (finite(x) ? `${(x * 100).toFixed(d)}%` : '–');
/** @param {number | null | undefined} x */
export const ratio = (x) => (finite(x) ? `${x.toFixed(2)}×` : '–');
/** @param {number} bytes */
export const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
/** MiB → MB (10^6 bytes). @param {number} mib */
export const mb = (mib) => (mib * 1024 * 1024) / 1e6;

/**
 * @param {string[]} head
 * @param {string[][]} rows
 */
export const table = (head, rows) =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
