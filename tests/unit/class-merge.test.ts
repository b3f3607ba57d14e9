import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTailwindMerge, getDefaultConfig, twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { CLASS_GROUPS_IN_USE } from '../../src/web/lib/class-merge';
import { cn } from '../../src/web/lib/utils';

const webRoot = path.resolve(import.meta.dirname, '../../src/web');

/** Every word of the web app's sources, split as Tailwind's scanner sees class candidates (quotes, spaces, braces). */
function wordsOfTheWebApp(): Set<string> {
  const words = new Set<string>();
  for (const entry of readdirSync(webRoot, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(tsx?|html|css)$/.test(entry.name)) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const word of text.split(/[\s'"`{}]+/)) if (word) words.add(word);
  }
  return words;
}

const defaults = getDefaultConfig();
/** A merger that knows only the given groups: a class it keeps once out of two copies belongs to one of them. */
const mergerOf = (classGroups: Record<string, unknown>) =>
  createTailwindMerge(() => ({ ...defaults, classGroups, conflictingClassGroups: {}, conflictingClassGroupModifiers: {} }) as never);
const belongsTo = (merge: (value: string) => string, word: string) => merge(`${word} ${word}`) === word;

// The app's Tailwind classes: words the default merger knows, less arbitrary properties (`[overflow-wrap:anywhere]`),
// which every merger knows without a group.
const noGroups = mergerOf({});
const appClasses = [...wordsOfTheWebApp()].filter((word) => belongsTo(twMerge, word) && !belongsTo(noGroups, word));

describe('cn(): tailwind-merge with only the class groups the app uses (issue 32: no full class map before the first paint)', () => {
  it('lists every group any of the app class belongs to, in tailwind-merge order', () => {
    expect(appClasses.length).toBeGreaterThan(300);
    const listed = new Set<string>(CLASS_GROUPS_IN_USE);
    const missing = new Set<string>();
    for (const [group, definition] of Object.entries(defaults.classGroups)) {
      if (listed.has(group)) continue;
      const merge = mergerOf({ [group]: definition });
      for (const word of appClasses) if (belongsTo(merge, word)) missing.add(`${group} (${word})`);
    }
    expect([...missing], 'add these groups to CLASS_GROUPS_IN_USE in src/web/lib/class-merge.ts').toEqual([]);
    const order = Object.keys(defaults.classGroups);
    expect([...CLASS_GROUPS_IN_USE]).toEqual(order.filter((group) => listed.has(group)));
  });

  it('merges any two of the app classes as the default merger does', () => {
    // Variants (`hover:`, `md:`) only name where a class applies; its kind is that of the class after them.
    const kinds = [...new Set(appClasses.map((word) => word.replace(/^(?:[^[\]]*:)+/, '')))];
    const differences: string[] = [];
    for (const first of kinds) {
      for (const second of kinds) {
        const value = `${first} ${second}`;
        if (cn(value) !== twMerge(value)) differences.push(value);
      }
    }
    expect(differences.slice(0, 20)).toEqual([]);
    // And all of them at once, in the order they were written and backwards (variants included).
    for (const all of [appClasses, [...appClasses].reverse()]) expect(cn(all.join(' '))).toBe(twMerge(all.join(' ')));
  }, 60_000);

  it('lets a caller override a component default and keeps what does not conflict', () => {
    expect(cn('border-b border-slate-100 px-4 py-2.5 text-slate-800', 'px-0 text-red-800')).toBe('border-b border-slate-100 py-2.5 px-0 text-red-800');
    expect(cn('text-sm text-slate-700', 'text-xs')).toBe('text-slate-700 text-xs');
    expect(cn('flex items-center', false, undefined, 'hidden md:flex')).toBe('items-center hidden md:flex');
    expect(cn('p-5 pt-2', 'p-0')).toBe('p-0');
  });
});
