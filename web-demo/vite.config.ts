// Builds the demo into dist/ with the laneql package's wasm modules next to the code that loads
// them. The package finds each .wasm (and the threaded flavour's pthread script) through
// `new URL('./wasm/...', import.meta.url)`, which Vite follows and copies as assets.
import { defineConfig, type Plugin } from 'vite';

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

// laneql's worker-proxy.js starts its Worker from a URL held in a variable, a form Vite does not
// recognise as a Worker: it would copy worker-entry.js as a plain file whose own imports are
// missing from the build. Writing the URL inside `new Worker(...)` lets Vite bundle the Worker
// with the engine. A no-op once the package writes it that way itself.
function laneqlWorkerUrl(): Plugin {
  return {
    name: 'laneql-worker-url',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]bindings-js[\\/]dist[\\/]worker-proxy\.js$/.test(id)) return null;
      const inlined = code.replace(
        /new Worker\(script, \{ type: 'module' \}\)/,
        "new Worker(new URL('./worker-entry.js', import.meta.url), { type: 'module' })",
      );
      return inlined === code ? null : { code: inlined, map: null };
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [laneqlWorkerUrl()],
  // The package's glue must stay where its .wasm files are, not be pre-bundled elsewhere.
  optimizeDeps: { exclude: ['laneql'] },
  // The engine's Worker loads its flavour with a dynamic import: code splitting needs ES workers.
  worker: { format: 'es', plugins: () => [laneqlWorkerUrl()] },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // Many small wasm glue chunks; the .wasm files themselves are a few MB and never inlined.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2048,
  },
  server: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
  preview: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
});
