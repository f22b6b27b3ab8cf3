// Builds the demo into dist/ with the laneql package's wasm modules next to the code that loads
// them. The package finds each .wasm (and the threaded flavour's pthread script) through
// `new URL('./wasm/...', import.meta.url)`, which Vite follows and copies as assets.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, searchForWorkspaceRoot, type Plugin } from 'vite';

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

// Emscripten's pthread script (laneql-*.worker.js) runs as a classic Worker. The dev server
// would rewrite it as an ES module (adding import statements) and break it: serve it untouched.
// (The build copies it as an asset, untouched anyway.)
function rawPthreadScript(root: () => string): Plugin {
  return {
    name: 'laneql-raw-pthread-script',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = decodeURIComponent((request.url ?? '').split('?')[0] ?? '');
        if (!/\/wasm\/[^/]+\/laneql-[^/]+\.worker\.js$/.test(path)) return next();
        const file = path.startsWith('/@fs/') ? path.slice('/@fs'.length) : join(root(), path);
        if (!existsSync(file)) return next();
        response.writeHead(200, { ...ISOLATION_HEADERS, 'Content-Type': 'text/javascript; charset=utf-8' });
        response.end(readFileSync(file));
      });
    },
  };
}

// The dev server serves files under the workspace only; bindings-js/dist may be a link to another
// checkout's build, so its real place is allowed too.
const packageDist = fileURLToPath(new URL('../bindings-js/dist', import.meta.url));
const devAllow = [searchForWorkspaceRoot(process.cwd()), ...(existsSync(packageDist) ? [realpathSync(packageDist)] : [])];

export default defineConfig({
  base: './',
  plugins: [rawPthreadScript(() => process.cwd())],
  // The package's glue must stay where its .wasm files are, not be pre-bundled elsewhere.
  // apache-arrow is only the package's optional toArrow(), which the demo never calls: left out
  // of the dev server's pre-bundling (finding it late would reload the page).
  optimizeDeps: { exclude: ['laneql', 'apache-arrow'] },
  // The engine's Worker loads its flavour with a dynamic import: code splitting needs ES workers.
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // Many small wasm glue chunks; the .wasm files themselves are a few MB and never inlined.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2048,
  },
  server: { host: '127.0.0.1', headers: ISOLATION_HEADERS, fs: { allow: devAllow } },
  preview: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
});
