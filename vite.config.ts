import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const webRoot = path.resolve(repoRoot, 'src/web');

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
            { name: 'common', test: /[\\/]src[\\/](contract|web[\\/]lib)[\\/]/, minShareCount: 2, priority: 5 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
