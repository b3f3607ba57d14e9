/**
 * The JavaScript budget of the built web app (run after `vite build`; `npm run check:bundle`).
 *
 * From dist/web/.vite/manifest.json it computes, for every page route, the gzip size of the JS the browser
 * loads before the page shows: the entry (index.html's script) with its static imports, plus the split
 * chunks of the route file and of every layout above it (TanStack Router's autoCodeSplitting) with their
 * static imports. Lazy imports (import()) a page makes later are not counted: form dialogs load their code when
 * they open (components/lazy-dialog.tsx), so react-hook-form, zod resolvers and the dialogs' own code stay out
 * of the pages' first JavaScript. It prints a table and exits non-zero when /sign-in is over 150 kB or any
 * page over 250 kB (kB = 1000 bytes, as Vite prints them): issue 15's budget, /sign-in back at 150 kB since decision 167, held in
 * CI (`npm test` runs it before the browser tests).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGETS = { signIn: 150_000, page: 250_000 };

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteSize {
  route: string;
  file: string;
  bytes: number;
  gzip: number;
  budget: number;
  chunks: number;
}

/** /_authed/candidates/$id/index.tsx -> /candidates/$id; pathless layouts (_x) and route/index files drop out. */
export function urlOf(routeFile: string): string {
  const segments = routeFile.replace(/\.tsx$/, '').split('/');
  const kept = segments.filter((segment, i) => !segment.startsWith('_') && !(i === segments.length - 1 && (segment === 'index' || segment === 'route')));
  return `/${kept.join('/')}`;
}

function listRouteFiles(routesDir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const name of readdirSync(path.join(routesDir, prefix)).sort()) {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(path.join(routesDir, relative)).isDirectory()) files.push(...listRouteFiles(routesDir, relative));
    else if (name.endsWith('.tsx')) files.push(relative);
  }
  return files;
}

/** The route file itself and every layout above it: __root, `dir.tsx` beside a folder, `dir/route.tsx`. */
function chainOf(routeFile: string, all: Set<string>): string[] {
  const chain = ['__root.tsx'];
  const dirs = routeFile.split('/').slice(0, -1);
  for (let i = 1; i <= dirs.length; i++) {
    const dir = dirs.slice(0, i).join('/');
    if (all.has(`${dir}.tsx`)) chain.push(`${dir}.tsx`);
    if (all.has(`${dir}/route.tsx`)) chain.push(`${dir}/route.tsx`);
  }
  if (!chain.includes(routeFile)) chain.push(routeFile);
  return chain;
}

export function measure(distDir: string, routesDir: string): RouteSize[] {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const gzipOf = new Map<string, number>();
  const sizeOf = (file: string) => {
    if (!gzipOf.has(file)) gzipOf.set(file, gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).byteLength);
    return gzipOf.get(file)!;
  };
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const next of manifest[key].imports ?? []) visit(next);
    };
    keys.forEach(visit);
    return seen;
  };
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  const all = new Set(listRouteFiles(routesDir));
  const pages = [...all].filter((file) => {
    if (file === '__root.tsx' || file.endsWith('/route.tsx')) return false;
    return !existsSync(path.join(routesDir, file.replace(/\.tsx$/, ''))); // a layout beside its folder
  });

  return pages.map((file) => {
    const chain = chainOf(file, all).map((f) => `routes/${f}`);
    const routeChunks = Object.keys(manifest).filter((key) => chain.some((f) => key === f || key.startsWith(`${f}?`)));
    const keys = closure([...entries, ...routeChunks]);
    const files = [...new Set([...keys].map((key) => manifest[key].file))].filter((f) => f.endsWith('.js'));
    const url = urlOf(file);
    return {
      route: url,
      file,
      bytes: files.reduce((sum, f) => sum + statSync(path.join(distDir, f)).size, 0),
      gzip: files.reduce((sum, f) => sum + sizeOf(f), 0),
      budget: url === '/sign-in' ? BUDGETS.signIn : BUDGETS.page,
      chunks: files.length,
    };
  });
}

function main() {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const distDir = path.resolve(process.argv[2] ?? path.join(repoRoot, 'dist/web'));
  const routesDir = path.join(repoRoot, 'src/web/routes');
  if (!existsSync(path.join(distDir, '.vite/manifest.json'))) {
    console.error(`No ${path.join(distDir, '.vite/manifest.json')}: run \`vite build\` first (build.manifest is on in vite.config.ts).`);
    process.exit(2);
  }
  const rows = measure(distDir, routesDir).sort((a, b) => b.gzip - a.gzip);
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  const width = Math.max(...rows.map((r) => r.route.length), 5);
  console.log(`${'route'.padEnd(width)}  ${'gzip'.padStart(9)}  ${'budget'.padStart(9)}  ${'raw'.padStart(9)}  chunks`);
  for (const row of rows) {
    const flag = row.gzip > row.budget ? '  OVER' : '';
    console.log(
      `${row.route.padEnd(width)}  ${kb(row.gzip).padStart(9)}  ${kb(row.budget).padStart(9)}  ${kb(row.bytes).padStart(9)}  ${String(row.chunks).padStart(6)}${flag}`,
    );
  }
  const over = rows.filter((row) => row.gzip > row.budget);
  if (over.length > 0) {
    console.error(`\nBundle budget exceeded by ${over.length} route(s): ${over.map((r) => `${r.route} (${kb(r.gzip)} > ${kb(r.budget)})`).join(', ')}`);
    process.exit(1);
  }
  console.log(`\nBundle budget: ${rows.length} routes within budget (/sign-in <= ${kb(BUDGETS.signIn)}, every page <= ${kb(BUDGETS.page)}).`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
