import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const webRoot = path.resolve(repoRoot, 'src/web');

/**
 * The shared modules that build zod schemas when they load: zod itself, and every src/contract or src/web/lib module
 * that imports zod or such a module. Building hundreds of schemas took ~150 ms of a desktop CPU (x4 on Lighthouse's
 * phone) while no first paint needs one (decision 185), so they get a chunk of their own that only pages and dialogs
 * that validate load. Read from the import lines, so a new contract module is placed by what it imports.
 */
function modulesThatBuildSchemas(): Set<string> {
  const dirs = ['src/contract', 'src/web/lib'].map((dir) => path.resolve(repoRoot, dir));
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => path.join(dir, name)),
  );
  const importsOf = new Map(
    files.map((file) => {
      const source = readFileSync(file, 'utf8');
      const specifiers = [...source.matchAll(/^(?:import|export) (?!type )[^;]*? from '([^']+)'/gms)].map((match) => match[1]!);
      return [file, specifiers];
    }),
  );
  const resolved = (from: string, specifier: string) => {
    if (!specifier.startsWith('.')) return specifier;
    const base = path.resolve(path.dirname(from), specifier);
    return ['.ts', '.tsx'].map((ext) => base + ext).find((candidate) => existsSync(candidate)) ?? base;
  };
  const building = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [file, specifiers] of importsOf) {
      if (building.has(file) || file.endsWith('zod-openapi-shim.ts')) continue;
      const targets = specifiers.map((specifier) => resolved(file, specifier));
      if (targets.some((target) => target === 'zod' || target === '@hono/zod-openapi' || building.has(target))) {
        building.add(file);
        changed = true;
      }
    }
  }
  return building;
}
const schemaModules = modulesThatBuildSchemas();
const buildsSchemas = (id: string) => schemaModules.has(id) || /[\\/]node_modules[\\/]zod[\\/]|zod-openapi-shim\.ts$/.test(id);

// The shared modules the candidate list's first paint needs, in five groups (decision 190): radix's dialog and the
// primitives under it (every signed-in page loads them with the shell), the combobox with its popover, the list pages'
// small components, the candidate list itself, and the small candidate modules other candidate pages share.
const overlayModules =
  /[\\/]node_modules[\\/](@radix-ui[\\/](react-)?(compose-refs|slot|primitive|context|use-layout-effect|use-effect-event|use-controllable-state|presence|id|use-callback-ref|dismissable-layer|focus-scope|portal|focus-guards|dialog|alert-dialog)|react-remove-scroll|react-remove-scroll-bar|use-callback-ref|use-sidecar|get-nonce|react-style-singleton|aria-hidden|tslib)[\\/]|[\\/]src[\\/]web[\\/]components[\\/]dialogs\.tsx$/;
const comboboxModules =
  /[\\/]node_modules[\\/](@radix-ui[\\/]react-(popover|popper|use-size)|@floating-ui)[\\/]|[\\/]src[\\/]web[\\/]components[\\/](Combobox|ComboboxPanel|combobox-search)\.tsx?$/;
const listKitModules =
  /[\\/]src[\\/]web[\\/](components[\\/](ListState|Pager|SearchBox|filters|lazy-dialog)|features[\\/]trials[\\/](hooks|queries|trial-option|OrganizationFilter))\.tsx?$/;
const candidatesListModules =
  /[\\/]src[\\/]web[\\/](features[\\/]candidates[\\/](CandidatesPage|CandidateTable|CandidateFilterBar|use-rows-in-batches|RecordConsentDialog)\.tsx?|features[\\/]matching[\\/]MatchTrialPicker\.tsx)$/;
const candidateKitModules = /[\\/]src[\\/]web[\\/]features[\\/]candidates[\\/](components|format|dialogs|CandidatesHeading)\.tsx?$/;

export default defineConfig({
  root: webRoot,
  plugins: [
    // The router plugin must come before the React plugin (guide §9).
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: path.resolve(webRoot, 'routes'),
      generatedRouteTree: path.resolve(webRoot, 'routeTree.gen.ts'),
    }),
    react(),
    tailwindcss(),
  ],
  resolve: {
    // The contracts' `z` comes from '@hono/zod-openapi' for the server's OpenAPI document; the browser gets
    // plain zod with a no-op .openapi() (src/web/lib/zod-openapi-shim.ts) and no OpenAPI generator.
    // libphonenumber-js (~29 kB gz) loads in the background instead (src/web/lib/phone-lazy.ts).
    alias: [
      { find: /^@hono\/zod-openapi$/, replacement: path.resolve(webRoot, 'lib/zod-openapi-shim.ts') },
      { find: /^libphonenumber-js$/, replacement: path.resolve(webRoot, 'lib/phone-lazy.ts') },
      // sonner (~9 kB gz) arrives with the Toaster after the first paint (src/web/lib/toast-lazy.ts).
      { find: /^sonner$/, replacement: path.resolve(webRoot, 'lib/toast-lazy.ts') },
    ],
  },
  build: {
    outDir: path.resolve(repoRoot, 'dist/web'),
    emptyOutDir: true,
    // dist/web/.vite/manifest.json: which chunks each route loads, read by scripts/check-bundle-budget.ts.
    manifest: true,
    // The entry lists every chunk's file name for preloading (~230 of them), so each hash character costs the
    // sign-in page's budget about 300 bytes; 7 characters (42 bits, the fewest rolldown accepts for this many
    // chunks) still tell every version of a chunk apart.
    rollupOptions: {
      // A schema no module uses is dropped: building one (`z.object(...)`) has no effect beyond its value. The web
      // never configures zod globally (`z.config`), the one call that would be lost.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        entryFileNames: 'assets/[name]-[hash:7].js',
        chunkFileNames: 'assets/[name]-[hash:7].js',
        assetFileNames: 'assets/[name]-[hash:7][extname]',
        // Fewer, larger chunks (decision 167): Lighthouse's phone is on HTTP/1.1 with 6 connections and 150 ms round
        // trips, so the ~25 small chunks of the first JavaScript and ~20 more per page cost more in waits than in
        // bytes. Everything the entry loads statically is one chunk; icons and the shared contract/lib modules
        // that two or more pages use are one chunk each.
        codeSplitting: {
          groups: [
            { name: 'start', tags: ['$initial'], priority: 20 },
            { name: 'icons', test: /lucide-react[\\/]dist[\\/]esm[\\/]icons/, minShareCount: 2, priority: 10 },
            { name: 'schemas', test: buildsSchemas, minShareCount: 2, priority: 6, includeDependenciesRecursively: false },
            { name: 'common', test: /[\\/]src[\\/](contract|web[\\/]lib)[\\/]/, minShareCount: 2, priority: 5 },
            // /candidates' first paint waited for 23 chunks, ~15 of them under 2 kB (decision 190): now 12. Each group
            // takes only the modules it names (not their imports, which put 14-20 kB more into unrelated pages);
            // a page that needed one small module of a group loads the group (at most +3.4 kB, `check:bundle`).
            { name: 'overlays', test: overlayModules, priority: 4, includeDependenciesRecursively: false },
            { name: 'combobox', test: comboboxModules, priority: 4, includeDependenciesRecursively: false },
            { name: 'list-kit', test: listKitModules, priority: 4, includeDependenciesRecursively: false },
            { name: 'candidates-list', test: candidatesListModules, priority: 4, includeDependenciesRecursively: false },
            { name: 'candidate-kit', test: candidateKitModules, priority: 4, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    // The API trusts this origin outside production (src/server/auth/origins.ts); strict so it never moves silently.
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
