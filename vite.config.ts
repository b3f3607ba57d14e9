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
    ],
  },
  build: {
    outDir: path.resolve(repoRoot, 'dist/web'),
    emptyOutDir: true,
    // dist/web/.vite/manifest.json: which chunks each route loads, read by scripts/check-bundle-budget.ts.
    manifest: true,
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
