/**
 * The size gate (`npm run lint`, after Biome and dependency-cruiser): units a reader can hold.
 *
 *   npx tsx scripts/check-size.ts [folder]        (default: src)
 *
 * Every `.ts` and `.js` file under the folder (the embedded store's worker is plain JavaScript) is
 * read with the TypeScript parser (syntax only, no type checker) and fails on:
 *
 * - **file**: more than 250 lines (what `wc -l` counts; a table counts like any other line).
 * - **function**: a function declaration, function expression, arrow function, method, getter,
 *   setter or constructor spanning more than 60 lines, from its first token to its last (its TSDoc
 *   not counted). A function nested in another is measured on its own and also counts towards the
 *   outer one. Tables are excepted because a table is not a function: a `const` (or property)
 *   whose initialiser is an array or object literal is data, however long; only the functions
 *   written inside it (a getter, an arrow in a row) are measured, each on its own.
 * - **parameters**: more than four positional parameters (a rest parameter counts as one, a
 *   TypeScript `this` parameter does not). Use an options object.
 * - **boolean flag**: a parameter whose annotated type (in JavaScript, its JSDoc `@param` type) is
 *   `boolean`, `true` or `false` (alone or with `undefined`/`null`), or whose default value is
 *   `true` or `false`. The call site then reads
 *   `f(x, true)`: name the choice in an options object, or write two functions. Set accessors are
 *   excepted (their one parameter is the value, not a flag). Parameters whose type comes from the
 *   context (an unannotated callback parameter) are not seen, by design: the rule is about the
 *   signatures we write, not about the callbacks a library hands us.
 *
 * Output: one `file:line name: what` line per violation; the exit code is 1 if there is any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export const MAX_FILE_LINES = 250;
export const MAX_FUNCTION_LINES = 60;
export const MAX_PARAMETERS = 4;

/**
 * Files let off the gate: none, every file of src/ passes. Kept for a split that takes more than
 * one change; a listed file that no longer violates (or no longer exists) fails the gate until it
 * is removed from here, so the list can only shrink.
 */
export const EXEMPT: readonly string[] = [];

/** One broken rule, where it is. */
export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly what: string;
}

type FunctionNode = ts.FunctionLikeDeclaration;

function isFunctionNode(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)
  );
}

/** The name a reader would search for: the function's own, or the variable or property holding it. */
function functionName(node: FunctionNode, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return node.name.getText(file);
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  ) {
    return parent.name.getText(file);
  }
  return '(anonymous function)';
}

const FLAG_TYPES = new Set([ts.SyntaxKind.BooleanKeyword, ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword]);
const EMPTY_TYPES = new Set([ts.SyntaxKind.UndefinedKeyword, ts.SyntaxKind.NullKeyword]);

/** `boolean`, `true`, `false`, optionally with `undefined` or `null` beside it. */
function isFlagType(type: ts.TypeNode): boolean {
  if (ts.isParenthesizedTypeNode(type)) return isFlagType(type.type);
  if (ts.isLiteralTypeNode(type)) return FLAG_TYPES.has(type.literal.kind) || EMPTY_TYPES.has(type.literal.kind);
  if (ts.isUnionTypeNode(type)) {
    const kinds = type.types.map((member) => (ts.isLiteralTypeNode(member) ? member.literal.kind : member.kind));
    return (
      kinds.some((kind) => FLAG_TYPES.has(kind)) && kinds.every((kind) => FLAG_TYPES.has(kind) || EMPTY_TYPES.has(kind))
    );
  }
  return FLAG_TYPES.has(type.kind);
}

function isFlagParameter(parameter: ts.ParameterDeclaration): boolean {
  const type = parameter.type ?? ts.getJSDocType(parameter);
  if (type !== undefined && isFlagType(type)) return true;
  const initial = parameter.initializer;
  return (
    initial !== undefined && (initial.kind === ts.SyntaxKind.TrueKeyword || initial.kind === ts.SyntaxKind.FalseKeyword)
  );
}

function lineOf(file: ts.SourceFile, position: number): number {
  return file.getLineAndCharacterOfPosition(position).line + 1;
}

function checkFunction(node: FunctionNode, file: ts.SourceFile, out: Violation[]): void {
  const line = lineOf(file, node.getStart(file));
  const name = functionName(node, file);
  const at = (what: string) => out.push({ file: file.fileName, line, name, what });
  const length = lineOf(file, node.getEnd()) - line + 1;
  if (length > MAX_FUNCTION_LINES) at(`${length} lines (at most ${MAX_FUNCTION_LINES})`);
  const positional = node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
  if (positional.length > MAX_PARAMETERS) {
    at(`${positional.length} positional parameters (at most ${MAX_PARAMETERS}; use an options object)`);
  }
  if (ts.isSetAccessorDeclaration(node)) return;
  for (const parameter of positional) {
    if (isFlagParameter(parameter)) {
      at(`boolean-flag parameter \`${parameter.name.getText(file)}\` (use an options object or two functions)`);
    }
  }
}

/** The violations of one file's text; `fileName` names it in the answer, and says JavaScript by `.js`. */
export function checkSource(fileName: string, text: string): Violation[] {
  const out: Violation[] = [];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES)
    out.push({ file: fileName, line: 1, name: 'file', what: `${lines} lines (at most ${MAX_FILE_LINES})` });
  const kind = fileName.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node: ts.Node): void => {
    if (isFunctionNode(node)) checkFunction(node, file, out);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The violations under `folder`, paths relative to `cwd` with `/`: those of exempted files are
 * left out, and an exempted file without any becomes one (the list can only shrink).
 */
export function checkTree(folder: string, exempt: readonly string[] = EXEMPT, cwd = process.cwd()): Violation[] {
  const out: Violation[] = [];
  const exempted = new Set(exempt);
  const violating = new Set<string>();
  for (const path of typeScriptFiles(folder)) {
    const name = relative(cwd, path).split(sep).join('/');
    const found = checkSource(name, readFileSync(path, 'utf8'));
    if (found.length > 0) violating.add(name);
    if (!exempted.has(name)) out.push(...found);
  }
  for (const name of exempt) {
    if (!violating.has(name)) {
      out.push({
        file: name,
        line: 1,
        name: 'exemption',
        what: 'no longer violates: remove it from EXEMPT in scripts/check-size.ts',
      });
    }
  }
  return out;
}

/** `file:line name: what`, the form editors and terminals turn into links. */
export function formatViolation(v: Violation): string {
  return `${v.file}:${v.line} ${v.name}: ${v.what}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const violations = checkTree(process.argv[2] ?? 'src');
  for (const v of violations) console.log(formatViolation(v));
  if (violations.length > 0) {
    console.error(`check-size: ${violations.length} violation(s); the rules are in scripts/check-size.ts`);
    process.exit(1);
  }
}
