/**
 * The size gate's rules (scripts/check-size.ts) on small inline sources. The gate is a pure
 * function of the text, so it lives with the unit tables (test/unit/scripts/ mirrors scripts/ as
 * test/unit/<path> mirrors src/<path>); only the exemption test writes a few files to a temp folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { checkSource, checkTree, formatViolation, type Violation } from '../../../scripts/check-size.js';

const lines = (n: number, line = 'x;') => Array.from({ length: n }, () => line).join('\n');
/** A function whose text spans exactly `n` lines. */
const functionOf = (n: number, name = 'f') => `function ${name}() {\n${lines(n - 2, '  x();')}\n}\n`;
const check = (text: string) => checkSource('a.ts', text).map(formatViolation);

describe('file length', () => {
  test('250 lines pass, 251 fail; a final newline is not a line', () => {
    expect(check(`${lines(250)}\n`)).toEqual([]);
    expect(check(lines(251))).toEqual(['a.ts:1 file: 251 lines (at most 250)']);
    expect(check(`${lines(251)}\n`)).toEqual(['a.ts:1 file: 251 lines (at most 250)']);
  });
});

describe('function length', () => {
  test('60 lines pass, 61 fail, counted from the first token (TSDoc left out)', () => {
    expect(check(`/**\n * doc\n */\n${functionOf(60)}`)).toEqual([]);
    expect(check(`/** doc */\n${functionOf(61)}`)).toEqual(['a.ts:2 f: 61 lines (at most 60)']);
  });

  test.each([
    ['an arrow held by a const', (body: string) => `const g = () => {\n${body}\n};`, 'g'],
    ['a function expression', (body: string) => `export const g = function () {\n${body}\n};`, 'g'],
    ['a method', (body: string) => `class C {\n  g() {\n${body}\n  }\n}`, 'g'],
    ['a getter in an object', (body: string) => `const o = {\n  get g() {\n${body}\n  },\n};`, 'g'],
    ['a constructor', (body: string) => `class C {\n  constructor() {\n${body}\n  }\n}`, 'constructor'],
    ['a property arrow', (body: string) => `class C {\n  g = () => {\n${body}\n  };\n}`, 'g'],
  ])('%s is measured', (_, wrap, name) => {
    const [violation] = checkSource('a.ts', wrap(lines(59, '  x();')));
    expect(violation?.name).toBe(name);
    expect(violation?.what).toBe('61 lines (at most 60)');
  });

  test('a callback is named as anonymous and measured on its own, and counts towards its caller', () => {
    const text = `function outer() {\n  run(() => {\n${lines(59, '    x();')}\n  });\n}`;
    expect(check(text)).toEqual([
      'a.ts:1 outer: 63 lines (at most 60)',
      'a.ts:2 (anonymous function): 61 lines (at most 60)',
    ]);
  });

  test('a table (a const holding an array or object literal) is not a function, however long', () => {
    expect(check(`export const RULES = [\n${lines(100, '  { a: 1 },')}\n];`)).toEqual([]);
    expect(check(`const TABLE = {\n${lines(100, '  a: 1,')}\n} as const;`)).toEqual([]);
  });

  test("but a function in a table's row is measured", () => {
    const text = `const RULES = [\n  {\n    get candidates() {\n${lines(59, '      x();')}\n    },\n  },\n];`;
    expect(check(text)).toEqual(['a.ts:3 candidates: 61 lines (at most 60)']);
  });
});

describe('positional parameters', () => {
  test('four pass, five fail', () => {
    expect(check('function f(a, b, c, d) {}')).toEqual([]);
    expect(check('function f(a, b, c, d, e) {}')).toEqual([
      'a.ts:1 f: 5 positional parameters (at most 4; use an options object)',
    ]);
    expect(check('const f = (a, b, c, d, e) => a;')).toHaveLength(1);
  });

  test('a rest parameter counts as one, `this` not at all, an options object as one', () => {
    expect(check('function f(a, b, c, ...rest: number[]) {}')).toEqual([]);
    expect(check('function f(this: Window, a, b, c, d) {}')).toEqual([]);
    expect(check('function f(a, b, c, { d, e, g }: { d: boolean; e: number; g: string }) {}')).toEqual([]);
  });
});

describe('boolean flags', () => {
  test.each([
    ['typed boolean', 'function f(a: string, flag: boolean) {}'],
    ['optional boolean', 'function f(flag?: boolean) {}'],
    ['boolean or undefined', 'function f(flag: boolean | undefined) {}'],
    ['a literal true', 'function f(flag: true) {}'],
    ['defaulting to false', 'function f(flag = false) {}'],
    ['defaulting to true, typed', 'const f = (flag: boolean = true) => flag;'],
    ['in a constructor', 'class C {\n  constructor(readonly flag: boolean) {}\n}'],
  ])('%s is a flag', (_, text) => {
    const found = checkSource('a.ts', text);
    expect(found).toHaveLength(1);
    expect(found[0]?.what).toBe('boolean-flag parameter `flag` (use an options object or two functions)');
  });

  test('in JavaScript, a JSDoc boolean is a flag, and the file is measured like any other', () => {
    const text = `/** @param {boolean} flag */\nfunction f(flag) {}\n${lines(250)}`;
    expect(checkSource('a.js', text).map(formatViolation)).toEqual([
      'a.js:1 file: 252 lines (at most 250)',
      'a.js:2 f: boolean-flag parameter `flag` (use an options object or two functions)',
    ]);
    expect(check('/** @param {boolean} flag */\nfunction f(flag) {}')).toEqual([
      'a.ts:2 f: boolean-flag parameter `flag` (use an options object or two functions)',
    ]);
  });

  test.each([
    ['a setter', 'class C {\n  set on(value: boolean) {}\n}'],
    ['an unannotated callback parameter', 'list.filter((done) => done);'],
    ['a boolean inside an options object', 'function f(options: { flag: boolean }) {}'],
    ['a union with other types', "function f(mode: boolean | 'auto') {}"],
    ['a boolean return', 'function f(a: string): boolean { return true; }'],
    ['a function type', 'type F = (hit: boolean) => void;'],
  ])('%s is not', (_, text) => {
    expect(check(text)).toEqual([]);
  });
});

describe('the exemption list', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  const tree = (files: Record<string, string>): string => {
    root = mkdtempSync(join(tmpdir(), 'check-size-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(root, 'src', name, '..'), { recursive: true });
      writeFileSync(join(root, 'src', name), text);
    }
    return root;
  };
  const run = (cwd: string, exempt: string[]): Violation[] => checkTree(join(cwd, 'src'), exempt, cwd);

  test('a violating file is reported with its path, nested folders included', () => {
    const cwd = tree({ 'a/b.ts': 'function f(a, b, c, d, e) {}\n', 'ok.ts': 'export const a = 1;\n' });
    expect(run(cwd, []).map(formatViolation)).toEqual([
      'src/a/b.ts:1 f: 5 positional parameters (at most 4; use an options object)',
    ]);
  });

  test('an exempted file that still violates is left out', () => {
    const cwd = tree({ 'a/b.ts': 'function f(a, b, c, d, e) {}\n' });
    expect(run(cwd, ['src/a/b.ts'])).toEqual([]);
  });

  test('an exempted file that no longer violates, or is gone, fails the gate', () => {
    const cwd = tree({ 'ok.ts': 'export const a = 1;\n' });
    expect(run(cwd, ['src/ok.ts', 'src/gone.ts']).map(formatViolation)).toEqual([
      'src/ok.ts:1 exemption: no longer violates: remove it from EXEMPT in scripts/check-size.ts',
      'src/gone.ts:1 exemption: no longer violates: remove it from EXEMPT in scripts/check-size.ts',
    ]);
  });
});
