import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentApiDocument, operationIndex } from '../../scripts/gen-api-operations';

// The docs list things the code has: feature folders and their files, endpoints, pages, npm scripts, environment
// variables, decision records. docs-paths.test.ts checks that what a doc names exists; this file checks the other
// way, that what exists is listed where a reader looks for it (decision 199). Each check reads the code's own list
// (the folders, the OpenAPI document, the route files, package.json, the environment reads) and compares it with
// the doc's; the last block shows each comparison failing on a planted error.

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const folders = (path: string) =>
  readdirSync(join(ROOT, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const filesUnder = (path: string) =>
  readdirSync(join(ROOT, path), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(join(ROOT, path), join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
const backticked = (markdown: string) => [...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);

const FEATURE_ROOTS = ['src/server/features', 'src/web/features'];
const FEATURES = FEATURE_ROOTS.flatMap((root) => folders(root).map((name) => `${root}/${name}`));

/** The files of a feature folder its README does not name: by name, by path in the folder, or under a named `folder/`. */
export function unlistedFiles(readme: string, files: string[]): string[] {
  const named = new Set(backticked(readme));
  const namedFolders = [...named].filter((text) => /^[\w.-]+(\/[\w.-]+)*\/$/.test(text));
  return files.filter(
    (file) => file !== 'README.md' && !named.has(file) && !named.has(file.split('/').pop() ?? '') && !namedFolders.some((folder) => file.startsWith(folder)),
  );
}

/** The entries of a README's `**Files:**` line that are not in its folder. */
export function listedButAbsent(readme: string, files: string[]): string[] {
  const line = /^\*\*Files:\*\*(.*)$/m.exec(readme)?.[1] ?? '';
  return backticked(line).filter((name) => /\.\w+$/.test(name) && !files.includes(name));
}

type Endpoint = { method: string; path: string };
const segments = (path: string) => path.split('/');
/** A README's endpoint (`:param` segments match any one segment) against an operation of the document. */
const covers = (listed: Endpoint, operation: Endpoint) =>
  listed.method === operation.method &&
  segments(listed.path).length === segments(operation.path).length &&
  segments(listed.path).every((part, index) => part.startsWith(':') || part === segments(operation.path)[index]);

/** The endpoints a feature README lists, one per line: `- GET /api/...`. */
export function listedEndpoints(readme: string): Endpoint[] {
  return [...readme.matchAll(/^- (GET|POST|PUT|PATCH|DELETE) (\/api\/\S+)/gm)].map((match) => ({ method: match[1], path: match[2] }));
}

/** app.ts's mounts: each prefix and the feature whose router it mounts there. */
export function mountsOf(app: string): Array<{ prefix: string; feature: string }> {
  const featureOf = new Map<string, string>();
  for (const match of app.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/features\/([\w-]+)\//g))
    for (const name of match[1].split(',')) featureOf.set(name.trim(), match[2]);
  return [...app.matchAll(/app\.route\('([^']+)',\s*(\w+)\)/g)].map((match) => ({ prefix: match[1], feature: featureOf.get(match[2]) ?? '(no feature)' }));
}

/** The features whose routers are mounted at the longest prefix of a path (several share `/api/candidates`). */
export function mountedBy(mounts: Array<{ prefix: string; feature: string }>, path: string): string[] {
  const matching = mounts.filter(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
  const longest = Math.max(...matching.map(({ prefix }) => prefix.length));
  return [...new Set(matching.filter(({ prefix }) => prefix.length === longest).map(({ feature }) => feature))];
}

/** The operations of the OpenAPI document, with `{param}` written `:param` as the READMEs write them. */
function documentedOperations(): Endpoint[] {
  return operationIndex(currentApiDocument()).map(({ method, path }) => ({ method, path: path.replace(/\{(\w+)\}/g, ':$1') }));
}

/** The page paths of TanStack Router's file routes: layouts (`route.tsx`, `x.tsx` beside a folder `x/`, `_pathless`) are not pages. */
export function pagePaths(routeFiles: string[], isFolder: (file: string) => boolean): string[] {
  const pages = routeFiles
    .filter((file) => file.endsWith('.tsx') && !file.endsWith('route.tsx') && !/(^|\/)_[^/]*\.tsx$/.test(file) && !isFolder(file.replace(/\.tsx$/, '')))
    .map((file) => {
      const parts = file
        .replace(/\.tsx$/, '')
        .split('/')
        .filter((part) => !part.startsWith('_') && part !== 'index');
      return `/${parts.map((part) => part.replace(/^\$(\w+)$/, '{$1}')).join('/')}`;
    });
  return [...new Set(pages)].sort();
}

/** What `src/server/jobs/register.ts` imports from each feature (its jobs, sweeps and run kinds), types left out. */
export function registeredByFeature(register: string): Array<{ feature: string; name: string }> {
  return [...register.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\.\/features\/([\w-]+)\//g)].flatMap((match) =>
    match[1]
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type '))
      .map((name) => ({ feature: match[2], name })),
  );
}

/** The npm scripts a doc runs (`npm run x`, `npm start`, `npm test`). */
export function namedScripts(markdown: string): string[] {
  const run = [...markdown.matchAll(/\bnpm run ([\w:.-]*\w)/g)].map((match) => match[1]);
  const short = [...markdown.matchAll(/\bnpm (start|test)\b/g)].map((match) => match[1]);
  return [...new Set([...run, ...short])];
}

/** The environment variables code reads: `process.env.X` and `env.X` (config.ts reads through `env`). */
export function readVariables(source: string): string[] {
  return [...source.matchAll(/\b(?:process\.env|env)\.([A-Z][A-Z0-9_]+)\b/g)].map((match) => match[1]);
}

const DECISIONS = 'docs/decisions';
/** The decision files' numbers, and the index's rows: their numbers in order and the files they link. */
export function decisionIndex(index: string, files: string[]) {
  const records = files.filter((file) => /^\d{3}-.+\.md$/.test(file) && !file.startsWith('000-'));
  const rows = [...index.matchAll(/^\| (\d{3}) \| \[[^\]]*\]\((\d{3}-[^)]+\.md)\)/gm)].map((match) => ({ number: match[1], file: match[2] }));
  const numbers = records.map((file) => file.slice(0, 3));
  return {
    duplicateNumbers: numbers.filter((number, index) => numbers.indexOf(number) !== index),
    notInIndex: records.filter((file) => !rows.some((row) => row.file === file)),
    linkedButAbsent: rows.filter((row) => !records.includes(row.file)).map((row) => row.file),
    rowNumberNotFile: rows.filter((row) => !row.file.startsWith(row.number)).map((row) => row.number),
    unsortedOrRepeated: rows.map((row) => row.number).filter((number, index, all) => index > 0 && number <= all[index - 1]),
  };
}

const SCRIPT_DOCS = [
  'README.md',
  'bench/README.md',
  ...filesUnder('docs')
    .filter((file) => file.endsWith('.md') && !file.startsWith('decisions/') && !file.startsWith('proposals/archive/'))
    .map((file) => `docs/${file}`),
  ...FEATURES.map((feature) => `${feature}/README.md`).filter((file) => existsSync(join(ROOT, file))),
];

describe('the docs list what the code has', () => {
  it('every feature folder has a README, linked from docs/ARCHITECTURE.md', () => {
    const architecture = read('docs/ARCHITECTURE.md');
    expect(FEATURES.length).toBeGreaterThan(30);
    expect(FEATURES.filter((feature) => !existsSync(join(ROOT, feature, 'README.md')))).toEqual([]);
    expect(FEATURES.filter((feature) => !architecture.includes(`](../${feature}/README.md)`))).toEqual([]);
  });

  it.each(FEATURES)('%s/README.md names every file of its folder, and lists no file it lacks', (feature) => {
    const readme = existsSync(join(ROOT, feature, 'README.md')) ? read(`${feature}/README.md`) : '';
    const files = filesUnder(feature);
    expect(unlistedFiles(readme, files)).toEqual([]);
    expect(listedButAbsent(readme, files)).toEqual([]);
  });

  it("every operation of the OpenAPI document is in its feature's README (or ARCHITECTURE.md), and every listed one exists", () => {
    const operations = documentedOperations();
    expect(operations.length).toBeGreaterThan(150);
    const listed = folders('src/server/features').flatMap((name) => listedEndpoints(read(`src/server/features/${name}/README.md`)));
    const architecture = read('docs/ARCHITECTURE.md');
    const outsideFeatures = (operation: Endpoint) =>
      operation.path.startsWith('/api/auth/') ? architecture.includes('`/api/auth/*`') : architecture.includes(`\`${operation.path}\``);
    const unlisted = operations.filter((operation) => !listed.some((entry) => covers(entry, operation)) && !outsideFeatures(operation));
    expect(unlisted.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    const absent = listed.filter((entry) => !operations.some((operation) => covers(entry, operation)));
    expect(absent.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
  });

  it('a feature README lists only endpoints its own routers are mounted for (src/server/app.ts)', () => {
    const mounts = mountsOf(read('src/server/app.ts'));
    expect(mounts.length).toBeGreaterThan(25);
    const elsewhere = folders('src/server/features').flatMap((name) =>
      listedEndpoints(read(`src/server/features/${name}/README.md`))
        .filter(({ path }) => !mountedBy(mounts, path).includes(name))
        .map(({ method, path }) => `${name}: ${method} ${path} (mounted by ${mountedBy(mounts, path).join(', ')})`),
    );
    expect(elsewhere).toEqual([]);
  });

  it("every job, sweep and run kind registered at start is named in its feature's README", () => {
    const registered = registeredByFeature(read('src/server/jobs/register.ts'));
    expect(registered.length).toBeGreaterThan(10);
    const unnamed = registered.filter(({ feature, name }) => !backticked(read(`src/server/features/${feature}/README.md`)).includes(name));
    expect(unnamed.map(({ feature, name }) => `${feature}: ${name}`)).toEqual([]);
  });

  it('README.md names every page of the web app', () => {
    const routes = 'src/web/routes';
    const pages = pagePaths(filesUnder(routes), (file) => existsSync(join(ROOT, routes, file)) && statSync(join(ROOT, routes, file)).isDirectory());
    expect(pages).toContain('/admin/calls/{callId}');
    const readme = read('README.md');
    expect(pages.filter((page) => !readme.includes(`\`${page}\``))).toEqual([]);
  });

  it('every npm script a doc runs exists, and README.md names every script of package.json', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);
    const unknown = SCRIPT_DOCS.flatMap((doc) =>
      namedScripts(read(doc))
        .filter((name) => !scripts.includes(name))
        .map((name) => `${doc}: npm run ${name}`),
    );
    expect(unknown).toEqual([]);
    const inReadme = namedScripts(read('README.md'));
    expect(scripts.filter((name) => !inReadme.includes(name))).toEqual([]);
  });

  it("README.md's configuration names every environment variable the app and its scripts read", () => {
    const sources = [...filesUnder('src').map((file) => `src/${file}`), ...filesUnder('scripts').map((file) => `scripts/${file}`)].filter((file) =>
      /\.(ts|tsx|mjs)$/.test(file),
    );
    const variables = [...new Set(sources.flatMap((file) => readVariables(read(file))))].sort();
    expect(variables).toContain('DATABASE_URL');
    const readme = read('README.md');
    expect(variables.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it('every decision record is in the index and every index row is a record, numbers unique and in order', () => {
    const found = decisionIndex(read(`${DECISIONS}/README.md`), readdirSync(join(ROOT, DECISIONS)));
    expect(found).toEqual({ duplicateNumbers: [], notInIndex: [], linkedButAbsent: [], rowNumberNotFile: [], unsortedOrRepeated: [] });
  });
});

describe('each comparison sees a planted error (so the checks above can fail)', () => {
  it('a file the README does not name, and a listed file that is gone', () => {
    const readme = '**Files:** `routes.ts`, `gone.ts`, the reader in `criteria/`.';
    expect(unlistedFiles(readme, ['routes.ts', 'new-step.ts', 'criteria/age.ts', 'README.md'])).toEqual(['new-step.ts']);
    expect(listedButAbsent(readme, ['routes.ts', 'criteria/age.ts'])).toEqual(['gone.ts']);
  });

  it('an endpoint on a wrong path, and a wildcard segment', () => {
    const listed = listedEndpoints('- GET /api/sequences/enrollments/:id\n- POST /api/functions/vapi/:name\n');
    expect(covers(listed[0], { method: 'GET', path: '/api/sequence-enrollments/:id' })).toBe(false);
    expect(covers(listed[1], { method: 'POST', path: '/api/functions/vapi/schedule-callback' })).toBe(true);
    expect(covers(listed[1], { method: 'GET', path: '/api/functions/vapi/schedule-callback' })).toBe(false);
  });

  it('a registered job, and the types beside it left out', () => {
    const register =
      "import { placeCallbackJob, sweepCallbacks } from '../features/calls/callback-calls';\nimport { askVisitFeedback, type VisitFeedbackJob } from '../features/prescreen/visit-feedback';\nimport { QUEUES } from './jobs';";
    expect(registeredByFeature(register)).toEqual([
      { feature: 'calls', name: 'placeCallbackJob' },
      { feature: 'calls', name: 'sweepCallbacks' },
      { feature: 'prescreen', name: 'askVisitFeedback' },
    ]);
  });

  it('an endpoint listed under a feature that does not mount it', () => {
    const app =
      "import { smsRoutes } from './features/sms/routes';\nimport { callRoutes } from './features/calls/routes';\n  app.route('/api/sms', smsRoutes);\n  app.route('/api/calls', callRoutes);";
    const mounts = mountsOf(app);
    expect(mounts).toEqual([
      { prefix: '/api/sms', feature: 'sms' },
      { prefix: '/api/calls', feature: 'calls' },
    ]);
    expect(mountedBy(mounts, '/api/calls/:callId')).toEqual(['calls']);
    expect(mountedBy(mounts, '/api/sms/threads').includes('calls')).toBe(false);
  });

  it('pages from route files, layouts left out', () => {
    const files = [
      '__root.tsx',
      '_authed.tsx',
      '_authed/admin/route.tsx',
      '_authed/admin/index.tsx',
      '_authed/trials.tsx',
      '_authed/trials/$trialId.tsx',
      'sign-in.tsx',
    ];
    expect(pagePaths(files, (file) => ['_authed', '_authed/admin', '_authed/trials'].includes(file))).toEqual(['/admin', '/sign-in', '/trials/{trialId}']);
  });

  it('a script that does not exist, and the variables code reads', () => {
    expect(namedScripts('Run `npm run bench:nope -- --db pglite`, then `npm test` and npm start.')).toEqual(['bench:nope', 'test', 'start']);
    expect(readVariables('const a = process.env.DATABASE_POOL_SIZE ?? 10; const b = env.COST_LLM_1K_TOKENS_USD;')).toEqual([
      'DATABASE_POOL_SIZE',
      'COST_LLM_1K_TOKENS_USD',
    ]);
  });

  it('a decision missing from the index, a row with no record, a repeated number', () => {
    const index = '| 001 | [One](001-one.md) | accepted | x |\n| 003 | [Three](003-three.md) | accepted | x |\n| 002 | [Two](002-two.md) | accepted | x |\n';
    expect(decisionIndex(index, ['000-template.md', '001-one.md', '002-two.md', '002-other.md', '004-four.md', 'README.md'])).toEqual({
      duplicateNumbers: ['002'],
      notInIndex: ['002-other.md', '004-four.md'],
      linkedButAbsent: ['003-three.md'],
      rowNumberNotFile: [],
      unsortedOrRepeated: ['002'],
    });
  });
});
