import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs name files and symbols; a move or a rename that leaves a doc behind goes red here (issue 34).
// Read: README.md, docs/*.md, docs/proposals/**, every feature README. Decision records are history (they
// describe the code as it was when decided) and are left out. A symbol placed in a file ("`file.ts` (`name`)") must be
// in that file. The other way round (what exists is listed) is docs-inventory.test.ts.

const ROOT = join(__dirname, '..', '..');

function filesUnder(folder: string, test: (name: string) => boolean): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

const DOCS = [
  'README.md',
  ...filesUnder('docs', (name) => name.endsWith('.md')).filter((file) => !file.startsWith('docs/decisions/') && !file.startsWith('docs/proposals/archive/')),
  ...filesUnder('src/server/features', (name) => name === 'README.md'),
  ...filesUnder('src/web/features', (name) => name === 'README.md'),
].sort();

const PATH_ROOTS = /^(src|tests|docs|bench|scripts)\//;
const FILE_ENDING = /\.(ts|tsx|md|json|sql|css|patch|js|mjs|txt|csv)$/;

/** The file paths a doc names: in backticks or as a link target; `src/x.ts:12`, `src/x.ts#L3` and `x.ts: name` read as the path. */
export function namedPaths(markdown: string): string[] {
  const found: string[] = [];
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const path = match[1].replace(/[:#].*$/, '').replace(/[),.;]+$/, '');
    if (PATH_ROOTS.test(path) || (path.includes('/') && FILE_ENDING.test(path) && !path.startsWith('/'))) found.push(path);
  }
  for (const match of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1].replace(/#.*$/, '');
    if (target && !/^[a-z]+:/.test(target)) found.push(target);
  }
  return found.filter((path) => !/[*{}<>]/.test(path));
}

/** The code symbols a doc names in backticks: `camelCase`, `PascalCase`, `UPPER_SNAKE`, `name()`, and the name after `file.ts: `. */
export function namedSymbols(markdown: string): string[] {
  const found: string[] = [];
  for (const match of markdown.matchAll(/`([^`]+)`/g)) {
    const text = match[1].trim();
    const afterFile = /^\S+\.tsx?:\s*([A-Za-z_$][\w$]*)(\(\))?$/.exec(text);
    const name = afterFile ? afterFile[1] : (/^([A-Za-z_$][\w$]*)(\(\))?$/.exec(text)?.[1] ?? null);
    if (!name) continue;
    const looksLikeCode = /^[a-z]+[A-Z]\w*$/.test(name) || /^[A-Z][a-z]+[A-Z]\w*$/.test(name) || /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name) || /\(\)$/.test(text);
    if (looksLikeCode) found.push(name);
  }
  return found;
}

const codeFiles = [
  ...filesUnder('src', (name) => /\.tsx?$/.test(name)),
  ...filesUnder('tests', (name) => /\.tsx?$/.test(name)),
  ...filesUnder('scripts', (name) => /\.(ts|mjs|js)$/.test(name)),
  ...filesUnder('bench', (name) => /\.(ts|mjs|js)$/.test(name)),
];
let declared: Set<string> | undefined;
/** Every name the code declares (function, class, const, type, interface, enum, method or object key). */
function declaredNames(): Set<string> {
  if (declared) return declared;
  declared = new Set();
  for (const file of codeFiles) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/\b(?:function\*?|class|const|let|var|type|interface|enum)\s+([A-Za-z_$][\w$]*)/g)) declared.add(match[1]);
    for (const match of text.matchAll(/^\s*(?:async\s+|static\s+|readonly\s+|private\s+|public\s+)*([A-Za-z_$][\w$]*)\s*[(:?]/gm)) declared.add(match[1]);
    for (const match of text.matchAll(/\{\s*([\w$,\s]+)\s*\}\s*=/g)) for (const name of match[1].split(/[,\s]+/)) if (name) declared.add(name);
  }
  return declared;
}

/**
 * The symbols a doc places in a file: "`file.ts` (`name`, `other`)", "`name` (`file.ts`" and "`name` in `file.ts`".
 * Declared somewhere is not enough there: a function moved to another file leaves the doc pointing at the wrong one.
 */
export function symbolsPlacedInFiles(markdown: string): Array<{ path: string; name: string }> {
  const placed: Array<{ path: string; name: string }> = [];
  const names = (text: string) => [...text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)].map((match) => match[1]);
  for (const match of markdown.matchAll(/`([^`\s]+\.tsx?)`\s*\(([^()]*)\)/g)) for (const name of names(match[2])) placed.push({ path: match[1], name });
  for (const match of markdown.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`\s*(?:\(|in\s+)`([^`\s]+\.tsx?)`/g)) placed.push({ path: match[2], name: match[1] });
  return placed;
}

const exists = (doc: string, path: string) => existsSync(join(ROOT, path)) || existsSync(join(ROOT, dirname(doc), path));
/** The shared data (`../shared/data/...`) is read in place, outside the project: `npm test` passes without it. */
const inProject = (path: string) => !path.startsWith('../shared/');

describe('the docs name what exists', () => {
  it('reads the docs and the feature READMEs', () => {
    expect(DOCS).toContain('docs/ARCHITECTURE.md');
    expect(DOCS.filter((doc) => doc.endsWith('/README.md') && doc.startsWith('src/server/features/')).length).toBeGreaterThan(10);
  });

  it.each(DOCS)('%s: every file path it names exists', (doc) => {
    const missing = namedPaths(readFileSync(join(ROOT, doc), 'utf8')).filter((path) => inProject(path) && !exists(doc, path));
    expect(missing).toEqual([]);
  });

  it.each(DOCS)('%s: every code symbol it names is declared in the code', (doc) => {
    const names = declaredNames();
    const missing = namedSymbols(readFileSync(join(ROOT, doc), 'utf8')).filter((name) => !names.has(name));
    expect([...new Set(missing)]).toEqual([]);
  });

  it.each(DOCS)('%s: a symbol it places in a file is in that file', (doc) => {
    const misplaced = symbolsPlacedInFiles(readFileSync(join(ROOT, doc), 'utf8')).filter(({ path, name }) => {
      const file = [join(ROOT, path), join(ROOT, dirname(doc), path)].find((candidate) => existsSync(candidate));
      return file !== undefined && !new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(readFileSync(file, 'utf8'));
    });
    expect(misplaced).toEqual([]);
  });

  it('sees a symbol placed in the wrong file', () => {
    const doc = 'Hours: `src/server/calling-hours.ts` (`withinCallingHours`, `recordActivity`); `runScoped` (`src/server/db/scoped.ts`).';
    expect(symbolsPlacedInFiles(doc)).toEqual([
      { path: 'src/server/calling-hours.ts', name: 'withinCallingHours' },
      { path: 'src/server/calling-hours.ts', name: 'recordActivity' },
      { path: 'src/server/db/scoped.ts', name: 'runScoped' },
    ]);
    expect(readFileSync(join(ROOT, 'src/server/calling-hours.ts'), 'utf8')).not.toMatch(/\brecordActivity\b/);
  });

  it('sees a missing path and a missing symbol (so the checks above can fail)', () => {
    const doc = 'See `src/server/features/calls/calling-hours.ts`, [the map](docs/NOPE.md) and `withinMarketingHoursX()`; `npm test` is no path.';
    expect(namedPaths(doc).filter((path) => !exists('README.md', path))).toEqual(['src/server/features/calls/calling-hours.ts', 'docs/NOPE.md']);
    expect(namedSymbols(doc)).toEqual(['withinMarketingHoursX']);
    expect(declaredNames().has('withinMarketingHoursX')).toBe(false);
    expect(declaredNames().has('runAsOrganization')).toBe(true);
  });
});
