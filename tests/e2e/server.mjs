// A static HTTP server for the browser test, on 127.0.0.1 only. URLs are
//   /<isolation>/dist/...    bindings-js/dist/ (the package as it ships)
//   /<isolation>/page/...    tests/e2e/page/
//   /<isolation>/shared/X.js tests/js/X.ts, transpiled (data generators and reference sums)
// where <isolation> is 'isolated' (COOP + COEP headers, so the page is cross-origin isolated and
// may share wasm memory with Workers) or 'plain' (no such headers).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedModuleSource } from './shared-ts.mjs';

const ROOTS = {
  dist: fileURLToPath(new URL('../../bindings-js/dist/', import.meta.url)),
  page: fileURLToPath(new URL('./page/', import.meta.url)),
};

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

async function resolveBody(area, rest) {
  if (area === 'shared') {
    const match = /^([a-z-]+)\.js$/.exec(rest);
    const source = match ? await sharedModuleSource(match[1]) : null;
    return source === null ? null : { body: source, type: MIME_TYPES['.js'] };
  }
  const root = ROOTS[area];
  if (root === undefined) return null;
  const file = normalize(join(root, rest));
  if (!file.startsWith(root) || file.endsWith(sep)) return null; // no escaping the root
  try {
    return { body: await readFile(file), type: MIME_TYPES[extname(file)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}

/** Starts the server on a free port; resolves to { origin, close() }. */
export async function startServer() {
  const server = createServer(async (request, response) => {
    let path = '';
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      // a malformed URL is answered as not found
    }
    const match = /^\/(isolated|plain)\/(dist|page|shared)\/(.*)$/.exec(path);
    const found = match ? await resolveBody(match[2], match[3] || 'index.html') : null;
    const headers = { 'Cache-Control': 'no-store', ...(match?.[1] === 'isolated' ? ISOLATION_HEADERS : {}) };
    if (found === null) {
      response.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { ...headers, 'Content-Type': found.type }).end(found.body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
