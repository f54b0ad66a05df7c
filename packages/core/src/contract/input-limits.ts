import { GatewayError } from '../errors.js';
import { shownKey } from './validation.js';

// The shape caps of every call's input and the path-segment rule (docs/security.md, "Input limits").

/**
 * Caps on the shape of what a caller sends, checked before anything whose cost grows with the input (coercion,
 * validation, error messages, spreading params): with them, one wide or deep request costs microseconds to refuse
 * instead of seconds of the event loop. They are far above what any operation takes (the widest declares 52
 * parameters; upstream payloads nest a few levels) and are documented in docs/security.md.
 */
export interface InputLimits {
  /** Most parameters (top-level keys) in one call. */
  readonly maxParams: number;
  /** Most keys in any one object, at any depth. */
  readonly maxKeys: number;
  /** Deepest nesting of objects and arrays; the parameters object itself is level 1. */
  readonly maxDepth: number;
  /** Most values (objects, arrays, strings, numbers, booleans, nulls) in one input, the input itself included. */
  readonly maxNodes: number;
}

export const INPUT_LIMITS: InputLimits = Object.freeze({ maxParams: 200, maxKeys: 1_000, maxDepth: 64, maxNodes: 100_000 });

/**
 * Key names refused anywhere in an input: assigned to a plain object they change its prototype instead of adding a
 * key (`?__proto__=…` was silently dropped, a JSON `{"__proto__": {…}}` parameter could lend the params inherited
 * values), and no upstream any plugin calls uses them.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const keyNotAllowed = (where: string) =>
  `Key not allowed: ${where} ("__proto__", "constructor" and "prototype" are refused as keys anywhere in the input)`;
const tooDeep = (what: string, limits: InputLimits) =>
  `Too deeply nested: more than ${limits.maxDepth} levels of objects and arrays in ${what} (the limit)`;
const tooManyValues = (what: string, limits: InputLimits) => `Too many values: more than ${limits.maxNodes} in ${what} (the limit)`;
const tooManyKeys = (where: string, limits: InputLimits) =>
  `Too many keys: ${where} has more than ${limits.maxKeys} (the limit per object)`;

interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: string;
}

const framePath = (root: string, frame: Frame | undefined, key?: string): string => {
  const keys: string[] = key === undefined ? [] : [key];
  for (let at = frame; at?.parent; at = at.parent) keys.push(at.key);
  return [root, ...keys.reverse().map(shownKey)].join('.');
};

/**
 * What is wrong with the shape of an input (`params` of a call, a settings object, a request body), or undefined:
 * too many parameters, an object with too many keys, nesting too deep, too many values, or a forbidden key name
 * (see {@link FORBIDDEN_KEYS}). Walks without recursion and stops at the first problem; the walk visits each value
 * once, at most `maxNodes` of them. `root` names the input in the message (`params`, `settings`, `body`).
 */
export function inputProblem(value: unknown, root = 'params', limits: InputLimits = INPUT_LIMITS): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const what = `the ${root}`;
  if (!Array.isArray(value)) {
    const count = Object.keys(value).length;
    if (count > limits.maxParams) {
      return `Too many parameters: ${count} in ${what}, more than ${limits.maxParams} (the limit)`;
    }
  }
  let nodes = 1;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth > limits.maxDepth) return tooDeep(what, limits);
    if (Array.isArray(frame.value)) {
      const items = frame.value as unknown[];
      nodes += items.length;
      if (nodes > limits.maxNodes) return tooManyValues(what, limits);
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: String(i) });
      }
      continue;
    }
    const keys = Object.keys(frame.value);
    if (keys.length > limits.maxKeys) return tooManyKeys(framePath(root, frame), limits);
    nodes += keys.length;
    if (nodes > limits.maxNodes) return tooManyValues(what, limits);
    for (const key of keys) {
      if (FORBIDDEN_KEYS.has(key)) return keyNotAllowed(framePath(root, frame, key));
      const item = (frame.value as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: frame.depth + 1, parent: frame, key });
    }
  }
  return undefined;
}

/** {@link inputProblem} as a 400 `bad_request`. */
export function assertInput(value: unknown, root = 'params', limits: InputLimits = INPUT_LIMITS): void {
  const problem = inputProblem(value, root, limits);
  if (problem) throw new GatewayError('bad_request', problem);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The same caps read from JSON text before it is parsed (width, depth and number of values; key names need the parsed
 * keys and are left to {@link inputProblem}), so that a body with 700,000 keys is refused after reading its first
 * thousand instead of being parsed into an object that takes seconds to look at. One pass over the bytes, stopping at
 * the first cap passed; strings are skipped with a native search. It does not judge syntax: text it passes still
 * goes to `JSON.parse`, and invalid text is reported by that.
 */
export function jsonTextProblem(text: Uint8Array, what = 'the request body', options: { limits?: InputLimits } = {}): string | undefined {
  const limits = options.limits ?? INPUT_LIMITS;
  const maxDepth = limits.maxDepth;
  // Per open container (index = its depth): how many members it has so far (0 until the first starts), and whether
  // it is an object (keys are capped per object; array items only by the number of values).
  const members = new Int32Array(maxDepth + 2);
  const isObject = new Uint8Array(maxDepth + 2);
  let depth = 0;
  let nodes = 1;
  const member = (): string | undefined => {
    if (depth > 0 && members[depth] === 0) {
      members[depth] = 1;
      nodes++;
      if (nodes > limits.maxNodes) return tooManyValues(what, limits);
    }
    return undefined;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as number;
    switch (c) {
      case 0x20: // space, tab, line feed, carriage return
      case 0x09:
      case 0x0a:
      case 0x0d:
      case 0x3a: // `:`
        break;
      case QUOTE: {
        const problem = member();
        if (problem) return problem;
        let end = text.indexOf(QUOTE, i + 1);
        for (;;) {
          if (end < 0) return undefined; // unterminated: JSON.parse reports it
          let backslashes = 0;
          while (text[end - 1 - backslashes] === BACKSLASH) backslashes++;
          if (backslashes % 2 === 0) break;
          end = text.indexOf(QUOTE, end + 1);
        }
        i = end;
        break;
      }
      case 0x7b: // `{`
      case 0x5b: {
        // `[`
        const problem = member();
        if (problem) return problem;
        depth++;
        if (depth > maxDepth) return tooDeep(what, limits);
        members[depth] = 0;
        isObject[depth] = c === 0x7b ? 1 : 0;
        break;
      }
      case 0x7d: // `}`
      case 0x5d: // `]`
        if (depth > 0) depth--;
        break;
      case 0x2c: // `,`
        if (depth === 0) break;
        members[depth] = (members[depth] as number) + 1;
        nodes++;
        if (isObject[depth] === 1 && (members[depth] as number) > limits.maxKeys) {
          return tooManyKeys(`an object in ${what}`, limits);
        }
        if (nodes > limits.maxNodes) return tooManyValues(what, limits);
        break;
      default: {
        // the first character of a number, true, false or null
        const problem = member();
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/**
 * The one rule for the value of a path parameter (a `:token` of an operation's gateway path), whatever the plugin's
 * schema says: it must stay one path segment of the upstream URL. Empty, `.` and `..` would move the upstream path
 * (`/accounts/../calls` is `/calls`, with the stored credential), and `/`, `\`, `?`, `#` and control characters
 * would end or split the segment once a server decodes it.
 */
export function pathSegmentProblem(value: string): string | undefined {
  if (value === '' || value === '.' || value === '..') return `must not be ${value === '' ? 'empty' : `"${value}"`}`;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) {
      return 'must not contain "/", "\\", "?", "#" or control characters';
    }
  }
  return undefined;
}
