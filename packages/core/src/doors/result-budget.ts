/**
 * The size of an MCP tool result, kept within a budget. An answer larger than the budget is shortened to valid JSON of
 * the same shape: the arrays of records are cut first (largest first, the first records kept), then long strings; every
 * other field — paging cursors, totals, `has_more` — stays as the upstream sent it. The shortened answer carries
 * `portico_truncated`, saying what was left out and how to get it.
 */

/**
 * 32 KiB. Assistants keep a tool result in their context window: Claude Code warns above 10,000 tokens of MCP output
 * and cuts at 25,000; JSON of business records runs at about 3 to 4 bytes a token, so 32 KiB is about 8,000 to 11,000
 * tokens — one answer a model can read whole, with room for many in a 200,000-token context. The answers that
 * prompted it were 22.8 KB (13 overdue QuickBooks invoices, whole records: kept) and 68–73 KB (a Notion search with no
 * query, every invoice with no filter: shortened).
 */
export const DEFAULT_MCP_RESULT_BUDGET = 32 * 1024;

export interface TruncationNote {
  /** Bytes of the whole answer and the budget it exceeded. */
  original_bytes: number;
  budget_bytes: number;
  /** Arrays cut, by JSON path: records kept of how many. */
  arrays: Array<{ path: string; kept: number; total: number }>;
  /** Strings cut, by JSON path. */
  strings: string[];
  /** What to do for the rest. */
  next: string;
}

export interface BudgetHints {
  /** The parameter that sets the page size, when the operation has one (limit, page_size, per_page…). */
  pageSize?: string;
  /** The parameter that selects fields, when the operation has one (fields, select). */
  fields?: string;
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null');

/** `body` itself when it fits, else a shortened copy with `portico_truncated` (the note is also returned). */
export function fitToBudget(body: unknown, budget: number, hints: BudgetHints = {}): { body: unknown; note?: TruncationNote } {
  const original = bytes(body);
  if (original <= budget) return { body };
  const note: TruncationNote = { original_bytes: original, budget_bytes: budget, arrays: [], strings: [], next: '' };
  // Room for the note itself (its paths and its advice): measured once it is written, so keep a margin.
  const target = Math.max(256, budget - 1024);
  // A list or a plain value is shortened inside { result }, the shape MCP's structured content takes for it anyway.
  const clone = structuredClone(body) as unknown;
  let work: Record<string, unknown> =
    typeof clone === 'object' && clone !== null && !Array.isArray(clone) ? (clone as Record<string, unknown>) : { result: clone };

  // 1. Arrays of records, the largest first, down to what fits (at least one record each). Looked for again after
  // each cut, so that an array inside a record that was left out is not counted.
  for (let round = 0; round < 20 && bytes(work) > target; round++) {
    const excess = bytes(work) - target;
    const found = arraysBySize(work).find((a) => largestPrefixWithin(a.array, bytes(a.array) - excess) < a.array.length);
    if (!found) break;
    const kept = largestPrefixWithin(found.array, bytes(found.array) - excess);
    (found.holder as Record<string, unknown>)[found.key as string] = found.array.slice(0, kept);
    note.arrays.push({ path: found.path, kept, total: found.array.length });
  }
  // 2. Long strings, the longest first.
  for (const found of stringsBySize(work)) {
    const excess = bytes(work) - target;
    if (excess <= 0) break;
    const { holder, key, path, text } = found;
    const keep = Math.max(0, text.length - excess - 40);
    (holder as Record<string, unknown>)[key as string] = `${text.slice(0, keep)}… [${text.length - keep} characters left out]`;
    note.strings.push(path);
  }
  note.next = advice(note, hints);
  if (bytes(work) > target) {
    // Nothing left to shorten safely (thousands of small fields): the note alone.
    work = {};
    note.next = `The answer (${original} bytes) is too large for this gateway's MCP result budget (${budget} bytes) and has no list to shorten. ${advice(note, hints)}`;
  }
  return { body: { ...work, portico_truncated: note }, note };
}

function advice(note: TruncationNote, hints: BudgetHints): string {
  const parts: string[] = [];
  if (note.arrays.length > 0) {
    const first = note.arrays[0] as { path: string; kept: number; total: number };
    parts.push(
      `Only the first ${first.kept} of the ${first.total} records at ${first.path} are shown${note.arrays.length > 1 ? ' (other lists were cut too; see arrays)' : ''}. ` +
        'A next-page cursor or offset in this answer continues after all the records of this page, not after those shown: ' +
        `to read the rest, call again asking for ${Math.max(1, first.kept)} per page${hints.pageSize ? ` (${hints.pageSize})` : ''} and page on as the operation's description says`,
    );
  }
  if (note.strings.length > 0) parts.push(`long text was cut at ${note.strings.join(', ')}`);
  const narrow = `or narrow the request with its filters${hints.fields ? `, and ask only for the fields you need with ${hints.fields}` : ''}`;
  return `${parts.join('; ')}${parts.length > 0 ? '; ' : ''}${narrow}.`;
}

interface FoundArray {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  path: string;
  array: unknown[];
}

/** Every array of objects in `value`, outermost included, largest (in bytes) first. */
function arraysBySize(value: unknown): FoundArray[] {
  const out: Array<FoundArray & { size: number }> = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      // Lists inside the first records only: the records after them go first when the list itself is cut.
      for (const [i, item] of node.slice(0, 20).entries()) walk(item, `${path}[${i}]`);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      const childPath = path ? `${path}.${key}` : key;
      if (Array.isArray(child) && child.length > 1 && child.some((item) => typeof item === 'object' && item !== null)) {
        out.push({ holder: node as Record<string, unknown>, key, path: childPath, array: child, size: bytes(child) });
      }
      walk(child, childPath);
    }
  };
  walk(value, '');
  return out.sort((a, b) => b.size - a.size);
}

/** How many of the first items fit in `within` bytes (as a JSON array), at least 1 when there are any. */
function largestPrefixWithin(array: unknown[], within: number): number {
  let size = 2;
  for (let i = 0; i < array.length; i++) {
    size += bytes(array[i]) + (i > 0 ? 1 : 0);
    if (size > within) return Math.max(1, i);
  }
  return array.length;
}

interface FoundString {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  path: string;
  text: string;
}

function stringsBySize(value: unknown): FoundString[] {
  const out: FoundString[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      const childPath = Array.isArray(node) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (typeof child === 'string' && child.length > 200) {
        out.push({ holder: node as Record<string, unknown>, key: Array.isArray(node) ? Number(key) : key, path: childPath, text: child });
      } else walk(child, childPath);
    }
  };
  walk(value, '');
  return out.sort((a, b) => b.text.length - a.text.length);
}
