#!/usr/bin/env node
// Serves the built demo (web-demo/dist) on 127.0.0.1, cross-origin isolated by default
// (COOP + COEP: threads need shared wasm memory), with the MIME types wasm and module Workers need.
//
//   node web-demo/scripts/serve.mjs [--plain] [--port N] [--root DIR]
//
// PORT in the environment sets the port too (default 5173); a busy port moves to the next free
// one. --plain leaves the isolation headers out: the page then runs single-threaded.
// Also a module: the end-to-end test starts both kinds with startDemoServer().
import { stat, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_ROOT = fileURLToPath(new URL('../dist/', import.meta.url));
const DEFAULT_PORT = 5173;
const PORT_ATTEMPTS = 20;

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

async function fileFor(root, urlPath) {
  let path = urlPath;
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(root, path));
  if (!file.startsWith(root)) return null; // no escaping the root with ../
  try {
    const info = await stat(file);
    return info.isFile() ? file : null;
  } catch {
    return null;
  }
}

function listen(server, port, host) {
  return new Promise((resolvePort, reject) => {
    const onError = (error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolvePort(server.address().port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Starts serving `root`. port 0 takes any free port; another busy port moves on to the next.
 * Resolves to { url, port, close() }.
 */
export async function startDemoServer({ root = DEFAULT_ROOT, port = DEFAULT_PORT, isolated = true, host = '127.0.0.1' } = {}) {
  const base = resolve(root) + sep;
  const server = createServer(async (request, response) => {
    let path = '/';
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      // a malformed URL is answered as not found
    }
    const headers = {
      'Cache-Control': 'no-cache',
      // Every file here is same-origin; CORP says so explicitly for COEP.
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
      ...(isolated ? ISOLATION_HEADERS : {}),
    };
    const file = request.method === 'GET' || request.method === 'HEAD' ? await fileFor(base, path) : null;
    if (file === null) {
      response.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { ...headers, 'Content-Type': MIME_TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(500, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('read error\n');
    }
  });
  let bound = null;
  for (let attempt = 0; attempt < PORT_ATTEMPTS && bound === null; attempt++) {
    try {
      bound = await listen(server, port === 0 ? 0 : port + attempt, host);
    } catch (error) {
      if (error.code !== 'EADDRINUSE' || port === 0) throw error;
    }
  }
  if (bound === null) throw new Error(`no free port from ${port} to ${port + PORT_ATTEMPTS - 1}`);
  return {
    url: `http://${host}:${bound}/`,
    port: bound,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function parseArguments(argv) {
  const options = { isolated: true, port: Number(process.env.PORT ?? DEFAULT_PORT), root: DEFAULT_ROOT };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--plain') options.isolated = false;
    else if (arg === '--port') options.port = Number(argv[++i]);
    else if (arg === '--root') options.root = resolve(argv[++i] ?? '.');
    else throw new Error(`unknown argument ${arg} (expected --plain, --port N, --root DIR)`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new Error(`bad port ${options.port}`);
  }
  return options;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseArguments(process.argv.slice(2));
  if ((await fileFor(resolve(options.root) + sep, '/index.html')) === null) {
    console.error(`no index.html in ${options.root}: build the demo first (make build-demo)`);
    process.exit(1);
  }
  const server = await startDemoServer(options);
  console.log(`laneql web demo: ${server.url}  (${options.isolated ? 'cross-origin isolated: threads on' : 'plain: single-threaded'}; Ctrl+C stops)`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
