import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWhere, renderClauses, selectStatement, type WhereClause, WhereSyntaxError } from './where.js';

/**
 * Property: whatever the caller writes in `where`, the statement sent to QuickBooks is one SELECT of the operation's
 * entity with the gateway's own STARTPOSITION and MAXRESULTS — no second statement, no other FROM, no other paging.
 *
 * The check does not trust the plugin's tokenizer. It reads the statement the way QuickBooks does (a single quote
 * opens a string, a backslash inside it escapes the next character, a single quote closes it), replaces each string
 * literal with `?`, and matches what is left against the exact shape the gateway may send.
 */

const ENTITY = 'Invoice';
const START = 17;
const MAX = 50;

/** The statement with every string literal replaced by `?`; undefined when a string is never closed. */
function skeleton(statement: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < statement.length) {
    const c = statement[i] as string;
    if (c !== "'") {
      out += c;
      i++;
      continue;
    }
    i++;
    for (;;) {
      if (i >= statement.length) return undefined;
      if (statement[i] === '\\') i += 2;
      else if (statement[i] === "'") break;
      else i++;
    }
    i++;
    out += '?';
  }
  return out;
}

const FIELD = '[A-Za-z][A-Za-z0-9]*(?:\\.[A-Za-z][A-Za-z0-9]*)*';
const VALUE = '(?:\\?|-?[0-9]+(?:\\.[0-9]+)?|true|false)';
const CONDITION = `${FIELD} (?:(?:=|<|>|<=|>=) ${VALUE}|LIKE \\?|IN \\(${VALUE}(?:, ${VALUE})*\\))`;
const SHAPE = new RegExp(
  `^SELECT \\* FROM ${ENTITY}(?: WHERE ${CONDITION}(?: AND ${CONDITION})*)?(?: ORDERBY ${FIELD}(?: ASC| DESC)?)? STARTPOSITION ${START} MAXRESULTS ${MAX}$`,
);
const RESERVED = /\b(SELECT|FROM|WHERE|STARTPOSITION|MAXRESULTS|OR|NOT|UNION|JOIN|COUNT|ORDER|GROUP|LIMIT|OFFSET)\b/gi;

function assertSafe(input: string): void {
  let tree: WhereClause;
  try {
    tree = parseWhere(input);
  } catch (error) {
    // Refused: only ever with the plugin's own error, which becomes a 400 before any upstream call.
    expect(error).toBeInstanceOf(WhereSyntaxError);
    return;
  }
  const statement = selectStatement(ENTITY, tree, START, MAX);
  const shape = skeleton(statement);
  expect(shape, `unclosed string in ${statement}`).toBeDefined();
  expect(shape, statement).toMatch(SHAPE);
  // Outside strings, the clause words appear exactly where the gateway put them, and nowhere else.
  const words = (shape as string).match(RESERVED) ?? [];
  const expected = ['SELECT', 'FROM', ...(tree.conditions.length > 0 ? ['WHERE'] : []), 'STARTPOSITION', 'MAXRESULTS'];
  expect(words.map((w) => w.toUpperCase())).toEqual(expected);
  expect(shape).not.toMatch(/;|--|\/\*|\\/);
  // The rendering is canonical: reading it again gives the same tree.
  expect(parseWhere(renderClauses(tree))).toEqual(tree);
}

/** Pieces that matter to a query language: quotes, escapes, statement ends, comments, clause words, operators. */
const FRAGMENTS = [
  "'",
  "\\'",
  '\\',
  "''",
  "'x'",
  "'; SELECT * FROM Customer --",
  ';',
  '--',
  '/*',
  '*/',
  '"',
  '*',
  'SELECT',
  'select',
  'FROM',
  'Invoice',
  'Customer',
  'WHERE',
  'STARTPOSITION',
  'MAXRESULTS',
  'startposition 1',
  '1000',
  '-1',
  '0.5',
  'AND',
  'and',
  'OR',
  'IN',
  'LIKE',
  'NOT',
  '(',
  ')',
  ',',
  '=',
  '<',
  '>',
  '<=',
  '>=',
  '!=',
  '<>',
  'ORDERBY',
  'DESC',
  'true',
  'false',
  'Name',
  'MetaData.LastUpdatedTime',
  "'%'",
  ' ',
  '  ',
  '\n',
  '\t',
  '\u0000',
  '\u2028',
  'é',
];

const soup = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }).map((parts) => parts.join(''));
const spacedSoup = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }).map((parts) => parts.join(' '));

/** Arbitrary text for string values, hostile pieces included. */
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.array(fc.constantFrom("'", '\\', ';', '--', ' OR 1=1', ' STARTPOSITION 1', 'x', '%'), { maxLength: 8 }).map((p) => p.join('')),
);
/** A string literal as a caller might write it: quotes escaped (or not, or badly). */
const literal = fc.tuple(text, fc.constantFrom('escaped', 'escaped', 'escaped', 'escaped', 'raw', 'doubled')).map(([value, style]) => {
  if (style === 'escaped') return `'${value.replaceAll('\\', '').replaceAll("'", "\\'")}'`;
  if (style === 'doubled') return `'${value.replaceAll("'", "''")}'`;
  return `'${value}'`;
});
const field = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom('Id', 'DisplayName', 'MetaData.LastUpdatedTime', 'Balance', 'TxnDate', 'Active') },
  { weight: 1, arbitrary: fc.constantFrom('from', 'Select', 'OR', 'a..b') },
);
const value = fc.oneof(literal, fc.constantFrom('1', '-2.5', 'true', 'FALSE', "'2025-01-01'"));
const condition = fc.oneof(
  fc
    .tuple(field, fc.constantFrom('=', '<', '>', '<=', '>=', '=', '<', '>', '<=', '>=', '!=', '=='), value)
    .map(([f, op, v]) => `${f} ${op} ${v}`),
  fc.tuple(field, literal).map(([f, v]) => `${f} LIKE ${v}`),
  fc.tuple(field, fc.array(value, { minLength: 1, maxLength: 4 })).map(([f, vs]) => `${f} IN (${vs.join(', ')})`),
);
const structured = fc
  .tuple(
    fc.array(condition, { maxLength: 4 }),
    fc.constantFrom('AND', 'and', ' AND ', 'AND', 'and', ' AND ', 'OR', ';'),
    fc.option(fc.tuple(field, fc.constantFrom('', ' ASC', ' DESC', ', Id')), { nil: undefined }),
    fc.constantFrom('', ' ', '', ' ', '', ' ', ' --', "'", ' STARTPOSITION 1 MAXRESULTS 9999'),
  )
  .map(([conditions, joiner, order, tail]) => {
    const where = conditions.join(` ${joiner} `);
    return `${where}${order ? ` ORDERBY ${order[0]}${order[1]}` : ''}${tail}`;
  });

describe('where: no input escapes the statement (property-based)', () => {
  it('holds for arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), assertSafe), { numRuns: 1000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), assertSafe), { numRuns: 500 });
  });

  it('holds for soups of quotes, escapes, comments and clause words', () => {
    fc.assert(fc.property(soup, assertSafe), { numRuns: 3000 });
    fc.assert(fc.property(spacedSoup, assertSafe), { numRuns: 3000 });
  });

  it('holds for filters shaped like real ones, with hostile values', () => {
    let accepted = 0;
    fc.assert(
      fc.property(structured, (input) => {
        assertSafe(input);
        try {
          parseWhere(input);
          accepted++;
        } catch {
          // refused, already checked
        }
      }),
      { numRuns: 3000 },
    );
    // The generator must reach the renderer, not only the error paths.
    expect(accepted).toBeGreaterThan(300);
  });

  it('the skeleton check itself catches a statement that breaks out', () => {
    const broken = `SELECT * FROM ${ENTITY} WHERE Name = 'x' OR 1 = 1 STARTPOSITION ${START} MAXRESULTS ${MAX}`;
    const fits = (statement: string) => SHAPE.test(skeleton(statement) ?? '');
    expect(fits(`SELECT * FROM ${ENTITY} WHERE Name = 'x' STARTPOSITION ${START} MAXRESULTS ${MAX}`)).toBe(true);
    expect(fits(broken)).toBe(false);
    const injected = `SELECT * FROM ${ENTITY} WHERE Name = 'x\\\\' STARTPOSITION 1 MAXRESULTS 1000 --' STARTPOSITION ${START} MAXRESULTS ${MAX}`;
    expect(fits(injected)).toBe(false);
  });
});
