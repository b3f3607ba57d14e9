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
  build: {
    outDir: path.resolve(repoRoot, 'dist/web'),
    emptyOutDir: true,
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
