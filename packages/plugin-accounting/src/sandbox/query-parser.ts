// The sandbox's own reader of QuickBooks Online query statements (it shares nothing with the plugin's query builder,
// so a test against the sandbox checks the plugin's output against an independent grammar):
//
//   statement  := SELECT projection FROM entity [WHERE condition {AND condition}]
//                 [ORDERBY orderKey {, orderKey}] [STARTPOSITION int] [MAXRESULTS int]
//   projection := '*' | COUNT '(' '*' ')' | field {, field}
//   condition  := field ('=' | '<' | '>' | '<=' | '>=') value | field LIKE string | field IN '(' value {, value} ')'
//   orderKey   := field [ASC | DESC]
//   value      := 'single-quoted, \' escapes' | number | true | false
//   field      := name {'.' name}            (MetaData.LastUpdatedTime, CustomerRef)
//
// Keywords are case-insensitive; STARTPOSITION and MAXRESULTS may come in either order. QuickBooks has no OR, NOT,
// parentheses or `!=` in its query language, so those are parse errors here too.

export type QueryValue = string | number | boolean;
export type ComparisonOperator = '=' | '<' | '>' | '<=' | '>=';

export type Condition =
  | { field: string; op: ComparisonOperator; value: QueryValue }
  | { field: string; op: 'LIKE'; value: string }
  | { field: string; op: 'IN'; values: QueryValue[] };

export interface OrderKey {
  field: string;
  descending: boolean;
}

export interface ParsedQuery {
  /** `SELECT COUNT(*)`. */
  count: boolean;
  /** Selected fields; empty for `*` and COUNT(*). */
  fields: string[];
  /** The entity name as written (matched case-insensitively later). */
  entity: string;
  where: Condition[];
  orderBy: OrderKey[];
  startPosition?: number;
  maxResults?: number;
}

/** A statement that does not parse; `message` is the `Detail` QuickBooks sends (`QueryParserError: …`). */
export class QueryParseError extends Error {
  constructor(detail: string) {
    super(`QueryParserError: ${detail}`);
    this.name = 'QueryParseError';
  }
}

type TokenKind = 'word' | 'string' | 'number' | 'symbol' | 'eof';

interface Token {
  kind: TokenKind;
  /** The text as written (for strings, the unescaped content). */
  text: string;
  column: number;
}

const KEYWORDS = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'ORDERBY',
  'ASC',
  'DESC',
  'STARTPOSITION',
  'MAXRESULTS',
  'LIKE',
  'IN',
  'COUNT',
]);
const SYMBOLS = ['<=', '>=', '!=', '<>', '=', '<', '>', '*', '(', ')', ','];

/** Splits a statement into tokens; throws {@link QueryParseError} on a character QuickBooks' lexer refuses. */
export function tokenize(statement: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < statement.length) {
    const ch = statement[i] as string;
    const column = i + 1;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "'") {
      let text = '';
      let j = i + 1;
      let closed = false;
      while (j < statement.length) {
        const c = statement[j] as string;
        if (c === '\\' && j + 1 < statement.length) {
          text += statement[j + 1];
          j += 2;
          continue;
        }
        if (c === "'") {
          closed = true;
          break;
        }
        text += c;
        j++;
      }
      if (!closed)
        throw new QueryParseError(`Lexical error at line 1, column ${statement.length + 1}.  Encountered: <EOF> after : "'${text}"`);
      tokens.push({ kind: 'string', text, column });
      i = j + 1;
      continue;
    }
    const number = /^-?\d+(?:\.\d+)?/.exec(statement.slice(i));
    if (number && (ch !== '-' || /\d/.test(statement[i + 1] ?? ''))) {
      tokens.push({ kind: 'number', text: number[0], column });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(statement.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0], column });
      i += word[0].length;
      continue;
    }
    const symbol = SYMBOLS.find((s) => statement.startsWith(s, i));
    if (symbol) {
      tokens.push({ kind: 'symbol', text: symbol, column });
      i += symbol.length;
      continue;
    }
    throw new QueryParseError(`Lexical error at line 1, column ${column}.  Encountered: "${ch}" (${ch.charCodeAt(0)}), after : ""`);
  }
  tokens.push({ kind: 'eof', text: '<EOF>', column: statement.length + 1 });
  return tokens;
}

/** Parses one statement; throws {@link QueryParseError} naming the first token that does not fit. */
export function parseQuery(statement: string): ParsedQuery {
  return new Parser(tokenize(statement)).statement();
}

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  statement(): ParsedQuery {
    this.keyword('SELECT');
    const query: ParsedQuery = { count: false, fields: [], entity: '', where: [], orderBy: [] };
    if (this.symbolIs('*')) {
      this.next();
    } else if (this.keywordIs('COUNT')) {
      this.next();
      this.symbol('(');
      this.symbol('*');
      this.symbol(')');
      query.count = true;
    } else {
      query.fields.push(this.field());
      while (this.symbolIs(',')) {
        this.next();
        query.fields.push(this.field());
      }
    }
    this.keyword('FROM');
    const entity = this.peek();
    if (entity.kind !== 'word' || isKeyword(entity)) this.fail('<ID>');
    query.entity = this.next().text;

    if (this.keywordIs('WHERE')) {
      this.next();
      query.where.push(this.condition());
      while (this.keywordIs('AND')) {
        this.next();
        query.where.push(this.condition());
      }
    }
    if (this.keywordIs('ORDERBY')) {
      this.next();
      query.orderBy.push(this.orderKey());
      while (this.symbolIs(',')) {
        this.next();
        query.orderBy.push(this.orderKey());
      }
    }
    for (let round = 0; round < 2; round++) {
      if (this.keywordIs('STARTPOSITION') && query.startPosition === undefined) {
        this.next();
        query.startPosition = this.integer();
      } else if (this.keywordIs('MAXRESULTS') && query.maxResults === undefined) {
        this.next();
        query.maxResults = this.integer();
      }
    }
    if (this.peek().kind !== 'eof') {
      const expected = ['<EOF>'];
      if (query.startPosition === undefined) expected.push('"STARTPOSITION" ...');
      if (query.maxResults === undefined) expected.push('"MAXRESULTS" ...');
      this.fail(...expected);
    }
    return query;
  }

  private condition(): Condition {
    const field = this.field();
    const token = this.peek();
    if (token.kind === 'symbol' && ['=', '<', '>', '<=', '>='].includes(token.text)) {
      this.next();
      return { field, op: token.text as ComparisonOperator, value: this.value() };
    }
    if (this.keywordIs('LIKE')) {
      this.next();
      const pattern = this.peek();
      if (pattern.kind !== 'string') this.fail('<STRING_LITERAL>');
      return { field, op: 'LIKE', value: this.next().text };
    }
    if (this.keywordIs('IN')) {
      this.next();
      this.symbol('(');
      const values = [this.value()];
      while (this.symbolIs(',')) {
        this.next();
        values.push(this.value());
      }
      this.symbol(')');
      return { field, op: 'IN', values };
    }
    return this.fail('"="', '"<"', '">"', '"<="', '">="', '"LIKE"', '"IN"');
  }

  private orderKey(): OrderKey {
    const field = this.field();
    if (this.keywordIs('ASC') || this.keywordIs('DESC')) return { field, descending: this.next().text.toUpperCase() === 'DESC' };
    return { field, descending: false };
  }

  private value(): QueryValue {
    const token = this.peek();
    if (token.kind === 'string') return this.next().text;
    if (token.kind === 'number') return Number(this.next().text);
    if (token.kind === 'word' && /^(true|false)$/i.test(token.text)) return this.next().text.toLowerCase() === 'true';
    return this.fail('<STRING_LITERAL>', '<NUMBER>', '"true"', '"false"');
  }

  private integer(): number {
    const token = this.peek();
    if (token.kind !== 'number' || !/^\d+$/.test(token.text)) this.fail('<INTEGER>');
    return Number(this.next().text);
  }

  private field(): string {
    const token = this.peek();
    if (token.kind !== 'word' || isKeyword(token)) this.fail('<ID>');
    return this.next().text;
  }

  private keyword(name: string): void {
    if (!this.keywordIs(name)) this.fail(`"${name.toLowerCase()}"`);
    this.next();
  }

  private symbol(text: string): void {
    if (!this.symbolIs(text)) this.fail(`"${text}"`);
    this.next();
  }

  private keywordIs(name: string): boolean {
    const token = this.peek();
    return token.kind === 'word' && token.text.toUpperCase() === name;
  }

  private symbolIs(text: string): boolean {
    const token = this.peek();
    return token.kind === 'symbol' && token.text === text;
  }

  private peek(): Token {
    return this.tokens[this.at] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.at++;
    return token;
  }

  /** JavaCC's wording, which is what QuickBooks' query parser reports. */
  private fail(...expected: string[]): never {
    const token = this.peek();
    const kind = token.kind === 'eof' ? '<EOF>' : token.kind === 'string' ? `<STRING_LITERAL> "'${token.text}'"` : `"${token.text}"`;
    throw new QueryParseError(
      `Encountered ${kind} at line 1, column ${token.column}.\nWas expecting${expected.length > 1 ? ' one of' : ''}:\n    ${expected.join(' ...\n    ')} ...`,
    );
  }
}

function isKeyword(token: Token): boolean {
  return KEYWORDS.has(token.text.toUpperCase());
}
