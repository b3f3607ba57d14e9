import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compare, FILE_EXCEPTIONS, FUNCTION_EXCEPTIONS, longFunctionsIn, measure } from '../../scripts/long-functions';

/**
 * Issue 34's size rule: no function over 150 lines and no file over 800 lines in src/, scripts/ and bench/, beyond
 * the justified exceptions in scripts/long-functions.ts (docs/ARCHITECTURE.md names each). Run the script to see them.
 */

const root = process.cwd();
const { functions, files } = measure(root);
const show = (items: Array<{ file: string; name: string; lines?: number }>) => items.map((item) => `${item.file} ${item.name} ${item.lines ?? ''}`.trim());

describe('long functions and files', () => {
  it('finds no new function over 150 lines (split it, or list it with its reason)', () => {
    expect(show(compare(functions, FUNCTION_EXCEPTIONS).unexcused)).toEqual([]);
  });

  it('finds no new file over 800 lines', () => {
    expect(show(compare(files, FILE_EXCEPTIONS).unexcused)).toEqual([]);
  });

  it('lists no exception that is no longer long (remove it from the list and from docs/ARCHITECTURE.md)', () => {
    expect(show([...compare(functions, FUNCTION_EXCEPTIONS).stale, ...compare(files, FILE_EXCEPTIONS).stale])).toEqual([]);
  });

  it('names every exception in docs/ARCHITECTURE.md', () => {
    const architecture = readFileSync(`${root}/docs/ARCHITECTURE.md`, 'utf8');
    const missing = [...FUNCTION_EXCEPTIONS, ...FILE_EXCEPTIONS].filter(
      (item) => !architecture.includes(`\`${item.file}\``) || (item.name && !architecture.includes(`\`${item.name}\``)),
    );
    expect(show(missing)).toEqual([]);
  });

  it('measures a function from its first to its last line, whatever its form, and names it', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `export function longOne() {\n${body(150)}\n}`,
      `const arrow = () => {\n${body(149)}\n};`,
      `class Box {\n  method() {\n${body(151)}\n  }\n}`,
      `register(() => {\n${body(149)}\n});`,
    ].join('\n');
    expect(longFunctionsIn('x.ts', text).map((item) => [item.name, item.lines])).toEqual([
      ['longOne', 152],
      ['arrow', 151],
      ['Box.method', 153],
      ['callback of register', 151],
    ]);
    expect(longFunctionsIn('x.ts', `function short() {\n${body(148)}\n}`)).toEqual([]);
  });
});
