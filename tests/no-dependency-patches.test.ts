// A dependency is used through its public API only: no code of ours replaces, adds or deletes a member of another
// module's prototype (a dependency's, node's or a built-in's), and none names a private member we know a dependency
// keeps (got's `Options#createNativeRequestOptions`, its `_internals`). Such a patch holds for the one version it was
// written against and silently stops holding, or breaks, on an upgrade. A speed-up uses a public option, or is
// proposed upstream (CONTRIBUTING.md, "Standards").
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Private members of dependencies that code of ours once reached for: named anywhere in code, they are a patch. */
const PRIVATE_MEMBERS = new Set(['createNativeRequestOptions', '_internals', '_unixOptions']);
/** Calls that write to their first argument. */
const WRITERS = new Set([
  'Object.defineProperty',
  'Object.defineProperties',
  'Object.assign',
  'Object.setPrototypeOf',
  'Reflect.set',
  'Reflect.defineProperty',
  'Reflect.deleteProperty',
  'Reflect.setPrototypeOf',
]);

const code = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'packages', 'apps', 'bench'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => /\.(ts|mts|cts|tsx|js|mjs|cjs)$/.test(path) && existsSync(join(root, path)));

/** The expression under parentheses, `as`, `satisfies`, `!` and type assertions. */
function bare(node: ts.Expression): ts.Expression {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isNonNullExpression(current) ||
    ts.isTypeAssertionExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

/** The text of a member name: `a.name`, `a['name']`; undefined for a computed one. */
function memberName(node: ts.Expression): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node)) {
    const argument = bare(node.argumentExpression);
    if (ts.isStringLiteralLike(argument)) return argument.text;
  }
  return undefined;
}

/**
 * Where a text of code patches another module: every write to a prototype whose owner is not a class of this file or
 * of the repository (imported by a relative path or from `@portico/…`), and every named private member of a dependency.
 * Each finding is `line: what`.
 */
function dependencyPatches(text: string, fileName = 'source.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  /** Names of classes and functions declared here, and bindings imported from the repository. */
  const own = new Set<string>();
  /** Variables holding another module's prototype (`const p = Other.prototype`). */
  const prototypeAliases = new Set<string>();
  const findings: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    findings.push(`${line + 1}: ${what}`);
  };

  const collectOwn = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isFunctionDeclaration(node)) && node.name) own.add(node.name.text);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      if ((from.startsWith('.') || from.startsWith('@portico/')) && node.importClause) {
        const clause = node.importClause;
        if (clause.name) own.add(clause.name.text);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) own.add(element.name.text);
        if (bindings && ts.isNamespaceImport(bindings)) own.add(bindings.name.text);
      }
    }
    ts.forEachChild(node, collectOwn);
  };
  collectOwn(source);

  /** The leftmost identifier of `a.b.c` / `a[b].c` / `a().b`, if any. */
  const rootOf = (node: ts.Expression): ts.Identifier | undefined => {
    let current = bare(node);
    while (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current) || ts.isCallExpression(current)) {
      current = bare(current.expression);
    }
    return ts.isIdentifier(current) ? current : undefined;
  };

  /** Whether `node` is, or reaches into, a prototype that is not ours. */
  const foreignPrototype = (node: ts.Expression): boolean => {
    const expression = bare(node);
    if (ts.isIdentifier(expression)) return prototypeAliases.has(expression.text);
    if (ts.isCallExpression(expression)) {
      const callee = expression.expression.getText(source);
      if (callee === 'Object.getPrototypeOf' || callee === 'Reflect.getPrototypeOf') {
        const [argument] = expression.arguments;
        return argument !== undefined && !own.has(rootOf(argument)?.text ?? '');
      }
      return false;
    }
    if (!ts.isPropertyAccessExpression(expression) && !ts.isElementAccessExpression(expression)) return false;
    const name = memberName(expression);
    if (name === 'prototype' || name === '__proto__') return !own.has(rootOf(expression.expression)?.text ?? '');
    return foreignPrototype(expression.expression);
  };

  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && foreignPrototype(node.initializer)) {
      prototypeAliases.add(node.name.text);
    }
    if (ts.isBinaryExpression(node)) {
      const operator = node.operatorToken.kind;
      const assigns = operator >= ts.SyntaxKind.FirstAssignment && operator <= ts.SyntaxKind.LastAssignment;
      const target = bare(node.left);
      if (assigns && (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target))) {
        if (foreignPrototype(target.expression)) report(node, `assigns to ${target.getText(source)}`);
      }
    }
    if (ts.isDeleteExpression(node)) {
      const target = bare(node.expression);
      if ((ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) && foreignPrototype(target.expression)) {
        report(node, `deletes ${target.getText(source)}`);
      }
    }
    if (ts.isCallExpression(node) && WRITERS.has(node.expression.getText(source))) {
      const [first] = node.arguments;
      if (first && foreignPrototype(first)) report(node, `${node.expression.getText(source)} on ${first.getText(source)}`);
    }
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const name = memberName(node);
      if (name !== undefined && PRIVATE_MEMBERS.has(name)) report(node, `names the private member ${name}`);
    }
    if (
      (ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node)) &&
      node.name
    ) {
      const name = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
      if (name !== undefined && PRIVATE_MEMBERS.has(name)) report(node, `names the private member ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

describe('dependencies used through their public API', () => {
  it('finds the code to read', () => {
    expect(code.length).toBeGreaterThan(100);
    expect(code).toContain('packages/core/src/upstream/client.ts');
  });

  it('no file under packages/, apps/ or bench/ patches a prototype of another module or names a private member of a dependency', () => {
    const found = code.flatMap((path) =>
      dependencyPatches(readFileSync(join(root, path), 'utf8'), path).map((finding) => `${path}:${finding}`),
    );
    expect(found).toEqual([]);
  });

  it.each([
    [
      "a method of got's Options replaced through a prototype held in a variable",
      [
        'export function tune(Options: { prototype: object }): boolean {',
        '  const prototype = Options.prototype as { createNativeRequestOptions?: () => object };',
        '  const original = prototype.createNativeRequestOptions;',
        '  prototype.createNativeRequestOptions = function createNativeRequestOptions() { return {}; };',
        '  return original !== undefined;',
        '}',
      ].join('\n'),
      [
        '2: names the private member createNativeRequestOptions',
        '3: names the private member createNativeRequestOptions',
        '4: assigns to prototype.createNativeRequestOptions',
        '4: names the private member createNativeRequestOptions',
      ],
    ],
    [
      "an imported class's method replaced",
      "import { Agent } from 'node:http';\nAgent.prototype.createConnection = () => undefined;",
      ['2: assigns to Agent.prototype.createConnection'],
    ],
    [
      'a method added to a built-in',
      "(Array.prototype as unknown as Record<string, unknown>)['last'] = function () {};",
      ["1: assigns to (Array.prototype as unknown as Record<string, unknown>)['last']"],
    ],
    [
      'a property defined on a prototype reached through a module',
      "import got from 'got';\nObject.defineProperty(got.Options.prototype, 'x', { value: 1 });",
      ['2: Object.defineProperty on got.Options.prototype'],
    ],
    [
      "a prototype's members replaced in bulk",
      "import { Socket } from 'node:net';\nObject.assign(Object.getPrototypeOf(new Socket()), { write() {} });",
      ['2: Object.assign on Object.getPrototypeOf(new Socket())'],
    ],
    ["got's internals read", 'const url = (options as any)._internals.url;', ['1: names the private member _internals']],
    [
      'a private member named by a string',
      "const build = proto['createNativeRequestOptions'];",
      ['1: names the private member createNativeRequestOptions'],
    ],
    [
      'a member deleted',
      "import { Options } from 'got';\ndelete (Options.prototype as any).merge;",
      ['2: deletes (Options.prototype as any).merge'],
    ],
  ])('finds %s', (_what, text, expected) => {
    expect(dependencyPatches(text)).toEqual(expected);
  });

  it.each([
    ['a method of a class of the same file', 'class Cache {}\n(Cache.prototype as any).size = 0;'],
    ['a method of a class of the repository', "import { UpstreamClient } from './client.js';\nconst send = UpstreamClient.prototype.send;"],
    ['a prototype compared, not written', 'const plain = Object.getPrototypeOf(item) === Object.prototype;'],
    [
      'a public option of got',
      "import got from 'got';\nconst client = got.extend({ mutableDefaults: true });\nclient.defaults.options.cacheOptions = {};",
    ],
    ['a private member in a comment', '// got builds its request options in createNativeRequestOptions\nconst x = 1;'],
    ['an object of our own written', 'const headers: Record<string, string> = {};\nheaders.prototype = "x";'],
  ])('leaves alone %s', (_what, text) => {
    expect(dependencyPatches(text)).toEqual([]);
  });
});
