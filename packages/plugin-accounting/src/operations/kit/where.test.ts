import { describe, expect, it } from 'vitest';
import { parseWhere, quote, renderClauses, selectStatement, WhereSyntaxError, whereProblem } from './where.js';

const render = (text: string) => renderClauses(parseWhere(text));

function refusal(text: string): WhereSyntaxError {
  try {
    parseWhere(text);
  } catch (error) {
    if (error instanceof WhereSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe('where: what it accepts, written back canonically', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ["DisplayName = 'Acme'", " WHERE DisplayName = 'Acme'"],
    ["displayname='Acme'", " WHERE displayname = 'Acme'"],
    ['Active = true', ' WHERE Active = true'],
    ['Active = TRUE', ' WHERE Active = true'],
    ['Active=False', ' WHERE Active = false'],
    ['Balance > 0', ' WHERE Balance > 0'],
    ['Balance >= 10.50', ' WHERE Balance >= 10.50'],
    ['Balance < -5', ' WHERE Balance < -5'],
    ['Balance<=-5.25', ' WHERE Balance <= -5.25'],
    ["Balance > '0'", " WHERE Balance > '0'"],
    ["MetaData.LastUpdatedTime >= '2025-01-01T00:00:00-07:00'", " WHERE MetaData.LastUpdatedTime >= '2025-01-01T00:00:00-07:00'"],
    ["DisplayName LIKE 'Acme%'", " WHERE DisplayName LIKE 'Acme%'"],
    ["DisplayName like '%a_b%'", " WHERE DisplayName LIKE '%a_b%'"],
    ["Id IN ('1','2', '3')", " WHERE Id IN ('1', '2', '3')"],
    ['Id in (1, 2)', ' WHERE Id IN (1, 2)'],
    ['Active IN (true)', ' WHERE Active IN (true)'],
    ["Active = true AND Balance > '0'", " WHERE Active = true AND Balance > '0'"],
    ["a = 1 and b = 2 AnD c = 'x'", " WHERE a = 1 AND b = 2 AND c = 'x'"],
    ['WHERE Active = true', ' WHERE Active = true'],
    ["FamilyName = 'O\\'Brien'", " WHERE FamilyName = 'O\\'Brien'"],
    ["Name = ''", " WHERE Name = ''"],
    ["Name = 'a; DROP TABLE x --'", " WHERE Name = 'a; DROP TABLE x --'"],
    ["Name = 'SELECT * FROM Invoice STARTPOSITION 1'", " WHERE Name = 'SELECT * FROM Invoice STARTPOSITION 1'"],
    ["Name = 'Café Olé ☕'", " WHERE Name = 'Café Olé ☕'"],
    ['ORDERBY DisplayName', ' ORDERBY DisplayName'],
    ['orderby TxnDate desc', ' ORDERBY TxnDate DESC'],
    ['Active = true ORDERBY MetaData.LastUpdatedTime ASC', ' WHERE Active = true ORDERBY MetaData.LastUpdatedTime ASC'],
    ['\n\tActive = true\r\n', ' WHERE Active = true'],
  ])('%j → %j', (input, output) => {
    expect(render(input)).toBe(output);
  });

  it('writes the statement around the filter with its own entity and paging', () => {
    expect(selectStatement('Invoice', parseWhere("Balance > '0' ORDERBY DueDate"), 1001, 500)).toBe(
      "SELECT * FROM Invoice WHERE Balance > '0' ORDERBY DueDate STARTPOSITION 1001 MAXRESULTS 500",
    );
    expect(selectStatement('Customer', parseWhere(''), 1, 1000)).toBe('SELECT * FROM Customer STARTPOSITION 1 MAXRESULTS 1000');
  });

  it('reading its own output gives the same tree (the rendering is canonical)', () => {
    const tree = parseWhere("a = 'x\\'y' AND b IN (1, true, 'z') AND c LIKE '%q' ORDERBY d DESC");
    expect(parseWhere(renderClauses(tree).trim())).toEqual(tree);
  });

  it('escapes every quote and never writes a backslash anywhere else', () => {
    expect(quote("it's")).toBe("'it\\'s'");
    expect(quote("''")).toBe("'\\'\\''");
  });
});

/** Hostile or broken filters: each refused with what was not understood and the column where reading stopped. */
const HOSTILE: Array<[string, RegExp, number]> = [
  ["Name = 'x'; DELETE FROM Customer", /";" is not allowed/, 11],
  ["Name = 'x';", /";" is not allowed/, 11],
  ['Active = true -- and more', /comments \("--"\)/, 15],
  ['Active = true /* hidden */', /comments \("\/\*"\)/, 15],
  ["Name = 'x' OR 1 = 1", /OR/, 12],
  ["Name = 'x' or Name = 'y'", /does not support OR/, 12],
  ['OR = 1', /does not support OR/, 1],
  ["Name = 'x' STARTPOSITION 1 MAXRESULTS 5000", /expected AND, ORDERBY or the end, found "STARTPOSITION"/, 12],
  ['STARTPOSITION 1', /STARTPOSITION is not allowed/, 1],
  ['MAXRESULTS 1000', /MAXRESULTS is not allowed/, 1],
  ['SELECT * FROM Invoice', /SELECT is not allowed/, 1],
  ["Id = 1 AND FROM = 'x'", /FROM is not allowed/, 12],
  ['Id IN (SELECT Id FROM Invoice)', /sub-selects are not allowed/, 8],
  ["Name = 'unterminated", /unterminated string/, 8],
  ["Name = 'x''", /write a quote inside a string as \\'/, 11],
  ["Name = 'O''Brien'", /write a quote inside a string as \\'/, 11],
  ["Name = 'trailing backslash\\'", /unterminated string/, 8],
  ["Name = 'a\\b'", /a backslash in a string may only escape a quote/, 10],
  ["Id IN ('1', '2'", /expected "," or "\)" in the IN list, found the end/, 16],
  ["Id IN '1', '2')", /expected "\(" after IN/, 7],
  ['(Active = true)', /expected a field name, found "\("/, 1],
  ['Active = true AND (Balance > 0)', /parentheses only enclose an IN list|expected a field name/, 19],
  ['Active = true)', /expected AND, ORDERBY or the end, found "\)"/, 14],
  ["Name != 'x'", /no != \(not equal\) operator/, 6],
  ["Name <> 'x'", /no <> \(not equal\) operator/, 6],
  ["Name == 'x'", /use = \(not ==\)/, 6],
  ["Name => 'x'", /unknown operator "=>"/, 6],
  ['Name = "x"', /single quotes/, 8],
  ['Name = x', /quote text values/, 8],
  ["NOT Name = 'x'", /expected a field name, found the keyword NOT/, 1],
  ["Name NOT LIKE 'x'", /QuickBooks has no NOT/, 6],
  ['Name IS NULL', /no IS operator/, 6],
  ['Name LIKE 5', /LIKE compares with a string/, 11],
  ['Balance BETWEEN 1 AND 2', /no BETWEEN operator/, 9],
  ['Active = true AND', /expected a field name, found the end/, 18],
  ['Active =', /expected a value/, 9],
  ["Name = 'x' ORDERBY", /expected a field name after ORDERBY/, 19],
  ['ORDER BY Name', /ORDERBY as one word/, 1],
  ['ORDERBY Name, Id', /ORDERBY takes one field/, 13],
  ['ORDERBY Name DESC Id', /expected AND, ORDERBY or the end|expected a condition or ORDERBY/, 19],
  ["Meta..Data = 'x'", /is not a field name/, 1],
  ["Name_x = 'x'", /"_" is not allowed in a field name/, 5],
  ["`Name` = 'x'", /quoted field names/, 1],
  ["[Name] = 'x'", /quoted field names/, 1],
  ['* = 1', /"\*" is not allowed/, 1],
  ['Balance = 12abc', /malformed number/, 13],
  ['Balance = 1.2.3', /malformed number/, 14],
  ["Name = 'a\nb'", /control characters/, 10],
  ["Name = 'x'\u0000", /control characters/, 11],
  ["Name = 'x' UNION SELECT 1", /expected AND, ORDERBY or the end, found "UNION"/, 12],
  ["Name = 'x' GROUP BY Name", /expected AND, ORDERBY or the end, found "GROUP"/, 12],
  ['Name = @p', /unexpected character "@"/, 8],
  ["Name = 'x' \\' OR 1=1", /unexpected character "\\"/, 12],
  ['Name = %', /wildcard inside a LIKE string/, 8],
];

describe('where: hostile and broken filters are refused, saying what and where', () => {
  it(`tests at least 20 hostile strings (${HOSTILE.length})`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(20);
  });

  it.each(HOSTILE)('%j', (input, reason, column) => {
    const error = refusal(input);
    expect(error.reason).toMatch(reason);
    expect(error.column).toBe(column);
    expect(error.message).toBe(`${error.reason} (at column ${column})`);
  });

  it('refuses a filter longer than 4000 characters', () => {
    expect(refusal(`Name = '${'x'.repeat(4000)}'`).reason).toMatch(/longer than 4000/);
  });

  it('refuses an IN list of more than 200 values', () => {
    expect(refusal(`Id IN (${Array.from({ length: 201 }, (_, i) => `'${i}'`).join(', ')})`).reason).toMatch(/at most 200 values/);
  });

  it('whereProblem names the parameter and the column for the 400', () => {
    expect(whereProblem("Name = 'x'; DROP")).toBe('params.where: ";" is not allowed: where is one filter, not a statement at column 11');
    expect(whereProblem("Name = 'x'")).toBeUndefined();
    expect(whereProblem(undefined)).toBeUndefined();
  });
});
