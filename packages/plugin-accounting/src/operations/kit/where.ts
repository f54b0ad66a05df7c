/**
 * The `where` parameter of the find_* operations: a filter in QuickBooks' query language, written by the caller.
 *
 * It is never pasted into the query. It is read by a tokenizer and a recursive-descent parser into a small syntax tree
 * (conditions joined by AND, and an optional ORDERBY), and the query text is written again from that tree with
 * canonical quoting. So nothing the caller writes can end the statement, add a clause or change the entity or the
 * paging: whatever is not part of the grammar below is refused with the column where reading stopped.
 *
 *   where      := [WHERE] [condition (AND condition)*] [orderby]
 *   condition  := field ( ('=' | '<' | '>' | '<=' | '>=') value
 *                       | LIKE string
 *                       | IN '(' value (',' value)* ')' )
 *   orderby    := ORDERBY field [ASC | DESC]
 *   field      := name ('.' name)*           name := letter (letter | digit)*
 *   value      := string | number | TRUE | FALSE
 *   string     := "'" (any character but ' \ and control characters | "\'")* "'"
 *   number     := ['-'] digit+ ['.' digit+]
 *
 * Keywords are case-insensitive and written back in capitals; `true`/`false` are written in lower case. QuickBooks has
 * no OR, no NOT, no != or <>, no parentheses other than around an IN list, no comments and no sub-selects
 * (Intuit: "The OR operation is not supported in WHERE clauses"; operators =, <, >, <=, >=, IN, LIKE).
 */

export type CompareOperator = '=' | '<' | '>' | '<=' | '>=';

export type WhereValue =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'boolean'; readonly value: boolean };

export type Condition =
  | { readonly field: string; readonly op: CompareOperator; readonly value: WhereValue }
  | { readonly field: string; readonly op: 'LIKE'; readonly value: Extract<WhereValue, { kind: 'string' }> }
  | { readonly field: string; readonly op: 'IN'; readonly values: readonly WhereValue[] };

export interface OrderBy {
  readonly field: string;
  readonly direction?: 'ASC' | 'DESC';
}

export interface WhereClause {
  readonly conditions: readonly Condition[];
  readonly orderBy?: OrderBy;
}

/** A `where` the gateway cannot read: what was not understood, and at which column (1-based). */
export class WhereSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly column: number,
  ) {
    super(`${reason} (at column ${column})`);
    this.name = 'WhereSyntaxError';
  }
}

/** Longest `where` accepted (QuickBooks' query travels in a URL). */
export const MAX_WHERE_LENGTH = 4000;
/** Most values in one IN list. */
export const MAX_IN_VALUES = 200;

// ---- tokens ----------------------------------------------------------------------------------------------------------

type TokenKind = 'word' | 'string' | 'number' | 'op' | '(' | ')' | ',' | 'end' | 'error';

interface Token {
  kind: TokenKind;
  /** The word or operator as written, the string's value (unescaped), the number's text. */
  text: string;
  /** 1-based column of the token's first character. */
  column: number;
  /** For `error`: why reading stopped there (thrown when the parser reaches it, so errors come in reading order). */
  error?: WhereSyntaxError;
}

const WORD_CHAR = /[A-Za-z0-9.]/;
const DIGIT = /[0-9]/;
const FIELD = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/;
const SPACE = /[ \t\r\n]/;

/**
 * Splits a `where` into tokens. At the first character that cannot start or continue a token, the list ends with an
 * `error` token: the parser reports it when it gets there, unless it finds an earlier problem first.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  try {
    scan(text, tokens);
  } catch (error) {
    if (!(error instanceof WhereSyntaxError)) throw error;
    tokens.push({ kind: 'error', text: '', column: error.column, error });
  }
  return tokens;
}

function scan(text: string, tokens: Token[]): void {
  let i = 0;
  const fail = (reason: string, at = i): never => {
    throw new WhereSyntaxError(reason, at + 1);
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (SPACE.test(c)) {
      i++;
      continue;
    }
    const start = i;
    const next = text[i + 1];
    if (c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) fail('unterminated string: a quote opened here is never closed', start);
        const ch = text[i] as string;
        if (ch === "'") {
          i++;
          break;
        }
        if (ch === '\\') {
          if (text[i + 1] !== "'") fail("a backslash in a string may only escape a quote (\\')");
          value += "'";
          i += 2;
          continue;
        }
        if (isControl(ch)) fail('control characters (line breaks, tabs…) are not allowed inside a string');
        value += ch;
        i++;
      }
      if (text[i] === "'") fail("write a quote inside a string as \\' (not '')");
      tokens.push({ kind: 'string', text: value, column: start + 1 });
      continue;
    }
    if (DIGIT.test(c) || (c === '-' && next !== undefined && DIGIT.test(next))) {
      i++;
      while (i < text.length && DIGIT.test(text[i] as string)) i++;
      if (text[i] === '.' && DIGIT.test(text[i + 1] ?? '')) {
        i++;
        while (i < text.length && DIGIT.test(text[i] as string)) i++;
      }
      if (i < text.length && /[A-Za-z0-9._]/.test(text[i] as string)) fail('malformed number');
      tokens.push({ kind: 'number', text: text.slice(start, i), column: start + 1 });
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      while (i < text.length && WORD_CHAR.test(text[i] as string)) i++;
      if (i < text.length && /[_$#@]/.test(text[i] as string))
        fail(`"${text[i]}" is not allowed in a field name (letters, digits and dots)`);
      tokens.push({ kind: 'word', text: text.slice(start, i), column: start + 1 });
      continue;
    }
    if (c === '<' || c === '>' || c === '=') {
      if (c === '<' && next === '>') fail('QuickBooks has no <> (not equal) operator');
      if (c === '=' && next === '=') fail('use = (not ==) to compare');
      if (c === '=' && (next === '<' || next === '>')) fail(`unknown operator "${c}${next}" (use ${next}=)`);
      const two = (c === '<' || c === '>') && next === '=';
      i += two ? 2 : 1;
      tokens.push({ kind: 'op', text: two ? `${c}=` : c, column: start + 1 });
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      i++;
      tokens.push({ kind: c, text: c, column: start + 1 });
      continue;
    }
    if (c === '!' && next === '=') fail('QuickBooks has no != (not equal) operator');
    if (c === ';') fail('";" is not allowed: where is one filter, not a statement');
    if (c === '-' && next === '-') fail('comments ("--") are not allowed');
    if (c === '/' && next === '*') fail('comments ("/*") are not allowed');
    if (c === '"') fail("strings are written in single quotes ('like this'), not double quotes");
    if (c === '`' || c === '[') fail('quoted field names are not supported: write the field name as it is');
    if (c === '*') fail('"*" is not allowed: the gateway always selects every field');
    if (c === '%') fail("% is a wildcard inside a LIKE string ('Acme%'), not an operator");
    fail(isControl(c) ? 'control characters are not allowed' : `unexpected character "${c}"`);
  }
  tokens.push({ kind: 'end', text: '', column: text.length + 1 });
}

function isControl(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || code === 0x2028 || code === 0x2029;
}

// ---- parser ------------------------------------------------------------------------------------------------------------

/** Words that are never field names: the clauses and operators of QuickBooks' language and of SQL. */
const STATEMENT_WORDS = new Set([
  'SELECT',
  'FROM',
  'STARTPOSITION',
  'MAXRESULTS',
  'COUNT',
  'JOIN',
  'UNION',
  'GROUP',
  'HAVING',
  'LIMIT',
  'OFFSET',
  'INSERT',
  'UPDATE',
  'DELETE',
  'DROP',
  'INTO',
  'VALUES',
  'EXEC',
  'EXECUTE',
]);
const CLAUSE_WORDS = new Set(['WHERE', 'AND', 'OR', 'NOT', 'IN', 'LIKE', 'ORDERBY', 'ORDER', 'BY', 'ASC', 'DESC', 'IS', 'NULL', 'BETWEEN']);
const COMPARE = new Set<string>(['=', '<', '>', '<=', '>=']);

class Parser {
  private position = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): WhereClause {
    const conditions: Condition[] = [];
    let orderBy: OrderBy | undefined;
    if (this.isWord('WHERE')) this.position++;
    if (!this.at('end') && !this.isWord('ORDERBY') && !this.isWord('ORDER')) {
      conditions.push(this.condition());
      while (this.isWord('AND')) {
        this.position++;
        conditions.push(this.condition());
      }
    }
    if (this.isWord('ORDERBY') || this.isWord('ORDER')) orderBy = this.orderBy();
    if (!this.at('end')) this.unexpected(conditions.length > 0 ? 'AND, ORDERBY or the end' : 'a condition or ORDERBY');
    return orderBy ? { conditions, orderBy } : { conditions };
  }

  private condition(): Condition {
    const field = this.field('a field name');
    const token = this.peek();
    if (token.kind === 'op') {
      this.position++;
      if (!COMPARE.has(token.text)) this.fail(`unknown operator "${token.text}"`, token);
      return { field, op: token.text as CompareOperator, value: this.value() };
    }
    if (this.isWord('LIKE')) {
      this.position++;
      const value = this.value();
      if (value.kind !== 'string') this.fail("LIKE compares with a string ('Acme%')", this.tokens[this.position - 1] as Token);
      return { field, op: 'LIKE', value: value as Extract<WhereValue, { kind: 'string' }> };
    }
    if (this.isWord('IN')) {
      this.position++;
      this.expect('(', '"(" after IN');
      const values = [this.value()];
      while (this.at(',')) {
        this.position++;
        values.push(this.value());
        if (values.length > MAX_IN_VALUES) this.fail(`an IN list holds at most ${MAX_IN_VALUES} values`, this.peek());
      }
      this.expect(')', '"," or ")" in the IN list');
      return { field, op: 'IN', values };
    }
    if (this.isWord('NOT')) this.fail('QuickBooks has no NOT', token);
    if (this.isWord('IS') || this.isWord('BETWEEN')) this.fail(`QuickBooks has no ${token.text.toUpperCase()} operator`, token);
    return this.unexpected('an operator (=, <, >, <=, >=, LIKE or IN)');
  }

  private orderBy(): OrderBy {
    const token = this.peek();
    if (this.isWord('ORDER')) this.fail('write ORDERBY as one word', token);
    this.position++;
    const field = this.field('a field name after ORDERBY');
    let direction: OrderBy['direction'];
    if (this.isWord('ASC') || this.isWord('DESC')) {
      direction = this.peek().text.toUpperCase() as 'ASC' | 'DESC';
      this.position++;
    }
    if (this.at(',')) this.fail('ORDERBY takes one field', this.peek());
    return direction ? { field, direction } : { field };
  }

  private field(what: string): string {
    const token = this.peek();
    if (token.kind !== 'word') return this.unexpected(what);
    const upper = token.text.toUpperCase();
    if (upper === 'OR')
      this.fail(
        'QuickBooks does not support OR: combine conditions with AND, or make one call per alternative (IN lists several values of one field)',
        token,
      );
    if (STATEMENT_WORDS.has(upper)) this.fail(`${upper} is not allowed in where: it holds only the filter (and an ORDERBY)`, token);
    if (CLAUSE_WORDS.has(upper) || upper === 'TRUE' || upper === 'FALSE') this.fail(`expected ${what}, found the keyword ${upper}`, token);
    if (!FIELD.test(token.text))
      this.fail(`"${token.text}" is not a field name (names separated by single dots, e.g. MetaData.LastUpdatedTime)`, token);
    this.position++;
    return token.text;
  }

  private value(): WhereValue {
    const token = this.peek();
    if (token.kind === 'string') {
      this.position++;
      return { kind: 'string', value: token.text };
    }
    if (token.kind === 'number') {
      this.position++;
      return { kind: 'number', text: token.text };
    }
    if (token.kind === 'word' && /^(true|false)$/i.test(token.text)) {
      this.position++;
      return { kind: 'boolean', value: token.text.toLowerCase() === 'true' };
    }
    if (token.kind === 'word' && token.text.toUpperCase() === 'SELECT') this.fail('sub-selects are not allowed', token);
    if (token.kind === 'word')
      this.fail(`expected a value ('text', a number, true or false), found ${token.text}: quote text values`, token);
    if (token.kind === '(') this.fail('parentheses only enclose an IN list', token);
    return this.unexpected("a value ('text', a number, true or false)");
  }

  private expect(kind: TokenKind, what: string): void {
    if (!this.at(kind)) this.unexpected(what);
    this.position++;
  }

  private unexpected(what: string): never {
    const token = this.peek();
    const found =
      token.kind === 'end'
        ? 'the end of the text'
        : token.kind === 'string'
          ? 'a string'
          : token.kind === 'word' && token.text.toUpperCase() === 'OR'
            ? 'OR (QuickBooks does not support OR: use AND, or IN for several values of one field)'
            : `"${token.text}"`;
    if (token.kind === '(' && what.startsWith('AND')) this.fail('parentheses only enclose an IN list', token);
    return this.fail(`expected ${what}, found ${found}`, token);
  }

  private fail(reason: string, token: Token): never {
    throw new WhereSyntaxError(reason, token.column);
  }

  private peek(): Token {
    const token = this.tokens[this.position] as Token;
    if (token.error) throw token.error;
    return token;
  }

  private at(kind: TokenKind): boolean {
    return this.peek().kind === kind;
  }

  private isWord(word: string): boolean {
    const token = this.peek();
    return token.kind === 'word' && token.text.toUpperCase() === word;
  }
}

/** Reads a `where`; throws WhereSyntaxError saying what was not understood and where. */
export function parseWhere(text: string): WhereClause {
  if (text.length > MAX_WHERE_LENGTH)
    throw new WhereSyntaxError(`where is longer than ${MAX_WHERE_LENGTH} characters`, MAX_WHERE_LENGTH + 1);
  return new Parser(tokenize(text)).parse();
}

/** The problem with a `where`, as a message for a 400, or undefined when it reads. */
export function whereProblem(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    parseWhere(text);
    return undefined;
  } catch (error) {
    if (error instanceof WhereSyntaxError) return `params.where: ${error.reason} at column ${error.column}`;
    throw error;
  }
}

// ---- rendering -------------------------------------------------------------------------------------------------------

/** A string literal as QuickBooks reads it: single quotes, a quote inside written \'. Backslashes never occur. */
export function quote(value: string): string {
  return `'${value.replaceAll("'", "\\'")}'`;
}

function renderValue(value: WhereValue): string {
  if (value.kind === 'string') return quote(value.value);
  if (value.kind === 'number') return value.text;
  return value.value ? 'true' : 'false';
}

function renderCondition(condition: Condition): string {
  if (condition.op === 'IN') return `${condition.field} IN (${condition.values.map(renderValue).join(', ')})`;
  return `${condition.field} ${condition.op} ${renderValue(condition.value)}`;
}

/** The WHERE and ORDERBY clauses written from the tree (empty when there are none), each preceded by a space. */
export function renderClauses(clause: WhereClause): string {
  const where = clause.conditions.length > 0 ? ` WHERE ${clause.conditions.map(renderCondition).join(' AND ')}` : '';
  const order = clause.orderBy ? ` ORDERBY ${clause.orderBy.field}${clause.orderBy.direction ? ` ${clause.orderBy.direction}` : ''}` : '';
  return `${where}${order}`;
}

/** The whole statement: the entity and the paging are the gateway's, the filter comes from the tree. */
export function selectStatement(
  entity: string,
  clause: WhereClause,
  startPosition: number,
  maxResults: number,
  columns: readonly string[] = [],
): string {
  if (!/^[A-Za-z]+$/.test(entity)) throw new Error(`bad entity name ${entity}`);
  if (!Number.isSafeInteger(startPosition) || startPosition < 1) throw new Error(`bad start position ${startPosition}`);
  if (!Number.isSafeInteger(maxResults) || maxResults < 1 || maxResults > 1000) throw new Error(`bad page size ${maxResults}`);
  if (columns.some((column) => !COLUMN.test(column))) throw new Error('bad column name');
  const projection = columns.length > 0 ? columns.join(', ') : '*';
  return `SELECT ${projection} FROM ${entity}${renderClauses(clause)} STARTPOSITION ${startPosition} MAXRESULTS ${maxResults}`;
}

/** A column of a SELECT: a plain field name (QuickBooks selects top-level fields). */
const COLUMN = /^[A-Za-z][A-Za-z0-9]*$/;
/** The `select` parameter: up to 50 field names, comma-separated. */
export const SELECT_PATTERN = '^[A-Za-z][A-Za-z0-9]*(\\s*,\\s*[A-Za-z][A-Za-z0-9]*){0,49}$';

/** The field names of a `select` parameter, in order, each once. */
export function selectColumns(select: string | undefined): string[] {
  return [
    ...new Set(
      (select ?? '')
        .split(',')
        .map((column) => column.trim())
        .filter(Boolean),
    ),
  ];
}
