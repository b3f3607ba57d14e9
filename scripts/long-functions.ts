/**
 * `npx tsx scripts/long-functions.ts`: lists the functions over 150 lines and the files over 800 lines in src/,
 * scripts/ and bench/ (generated files left out), by the TypeScript syntax tree, and which of them are not in the
 * justified exceptions below. tests/unit/long-functions.test.ts fails on a new one, or on an exception that is no
 * longer long (so the list, and docs/ARCHITECTURE.md's copy of it, stay true).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 150;
export const MAX_FILE_LINES = 800;
const ROOTS = ['src', 'scripts', 'bench'];
/** Written by tools: TanStack Router's route tree, `npm run gen:api`'s typed operations. */
const GENERATED = /\.gen\.ts$/;

export interface LongItem {
  file: string;
  /** The function's name (`Class.method`, or `callback of f` for an unnamed argument); empty for a file. */
  name: string;
  lines: number;
}

export interface Exception {
  file: string;
  name: string;
  reason: string;
}

/** Files over 800 lines that stay, and why. */
export const FILE_EXCEPTIONS: Exception[] = [];

const fn = (file: string, name: string, reason: string): Exception => ({ file, name, reason });

/** Functions over 150 lines that stay for now, and why. */
export const FUNCTION_EXCEPTIONS: Exception[] = [
  // One configuration object or table written as a function: splitting it would scatter one list.
  fn('src/server/auth/auth.ts', 'createAuth', "one configuration object: better-auth's options"),
  fn('src/server/integrations/voice/simulator.ts', 'createSimulatorVoice', 'one object: the simulated voice provider'),
  fn('src/server/app.ts', 'createApp', 'the list of mounted routers and middleware, in order (a shared file every feature adds to)'),
  fn('bench/api-load.ts', 'serve', 'a bench script: one server set-up read top to bottom'),
];

/** Every .ts/.tsx file under the roots, relative to `root`, generated files left out. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !GENERATED.test(entry.name)) {
        files.push(relative(root, path));
      }
    }
  };
  for (const dir of ROOTS) walk(join(root, dir));
  return files.sort();
}

/** A readable name for a function node: its declaration, the variable or property it is assigned to, or its call. */
function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  const parent = node.parent;
  let own = named.name ? named.name.getText(source) : '';
  if (!own && ts.isVariableDeclaration(parent)) own = parent.name.getText(source);
  if (!own && (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) own = parent.name.getText(source);
  if (!own && ts.isCallExpression(parent)) own = `callback of ${parent.expression.getText(source).slice(0, 40)}`;
  if (ts.isConstructorDeclaration(node)) own = 'constructor';
  const holder = parent && (ts.isClassDeclaration(parent) || ts.isClassExpression(parent)) ? parent.name?.getText(source) : undefined;
  return holder ? `${holder}.${own}` : own || '<anonymous>';
}

const lineOf = (source: ts.SourceFile, position: number) => source.getLineAndCharacterOfPosition(position).line;

/** The functions of one file's text that run over `max` lines (first to last line, both counted). */
export function longFunctionsIn(file: string, text: string, max = MAX_FUNCTION_LINES): LongItem[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: LongItem[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(source, node.getEnd()) - lineOf(source, node.getStart(source)) + 1;
      if (lines > max) found.push({ file, name: functionName(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function measure(root: string) {
  const functions: LongItem[] = [];
  const files: LongItem[] = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) files.push({ file, name: '', lines });
    functions.push(...longFunctionsIn(file, text));
  }
  return { functions, files };
}

const key = (item: { file: string; name: string }) => `${item.file}#${item.name}`;

/** What is long and not excepted, and what is excepted but no longer long (or gone). */
export function compare(found: LongItem[], exceptions: Exception[]) {
  const excepted = new Set(exceptions.map(key));
  const foundKeys = new Set(found.map(key));
  return {
    unexcused: found.filter((item) => !excepted.has(key(item))),
    stale: exceptions.filter((item) => !foundKeys.has(key(item))),
  };
}

function main() {
  const { functions, files } = measure(process.cwd());
  const show = (item: LongItem) => `  ${item.lines.toString().padStart(5)}  ${item.file}${item.name ? `  ${item.name}` : ''}`;
  console.log(`Files over ${MAX_FILE_LINES} lines (generated files left out):`);
  for (const item of files.sort((a, b) => b.lines - a.lines)) console.log(show(item));
  console.log(`Functions over ${MAX_FUNCTION_LINES} lines:`);
  for (const item of functions.sort((a, b) => b.lines - a.lines)) console.log(show(item));
  const fileCheck = compare(files, FILE_EXCEPTIONS);
  const functionCheck = compare(functions, FUNCTION_EXCEPTIONS);
  const unexcused = [...fileCheck.unexcused, ...functionCheck.unexcused];
  const stale = [...fileCheck.stale, ...functionCheck.stale];
  console.log(`Not in the exceptions: ${unexcused.length}${unexcused.map((item) => `\n${show(item)}`).join('')}`);
  console.log(`Exceptions no longer long: ${stale.length}${stale.map((item) => `\n  ${item.file}  ${item.name}`).join('')}`);
  if (unexcused.length || stale.length) process.exitCode = 1;
}

if (process.argv[1]?.endsWith('long-functions.ts')) main();
