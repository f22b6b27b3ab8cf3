// A wasm engine of the Node benchmarks in a child process of its own (bench/wasm/run.mjs:
// ClickBench, bench/tpch/wasm.mjs: TPC-H), so that a query past its time limit can be ended, a
// crash takes that engine alone down, and each wasm module has its own 4 GB. The child is the
// given script (engine.mjs, wasm_engine.mjs), spoken to with { id, op, ... } messages; each
// reply may carry maxRssMb, the child's peak resident memory, kept here as peakRssMb.
import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const log = (...parts) => console.error(...parts);

/** VmHWM (peak resident memory) of a live process, in MB, or null. */
function peakRssOf(pid) {
  try {
    const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

export class EngineProcess {
  /** `script`: the child's module; `loadMessage`: what its load request carries. */
  constructor(kind, script, loadMessage) {
    this.kind = kind;
    this.script = script;
    this.loadMessage = loadMessage;
    this.proc = null;
    this.nextId = 1;
    this.waiting = new Map();
    this.dead = null; // why the engine is out of the run
    this.loaded = null; // the first successful load's reply
    this.restarts = 0;
    this.peakRssMb = 0;
  }

  notePeak(mb) {
    if (typeof mb === 'number' && mb > this.peakRssMb) this.peakRssMb = mb;
  }

  async start() {
    const proc = fork(this.script, [this.kind], {
      execArgv: ['--no-experimental-fetch', '--max-old-space-size=8192'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.proc = proc;
    // This process's pending requests: an ended process fails its own, not its successor's.
    const waiting = new Map();
    this.waiting = waiting;
    const ready = new Promise((resolve) => {
      proc.once('message', resolve);
      proc.once('exit', resolve);
    });
    proc.on('message', (m) => {
      this.notePeak(m.maxRssMb);
      const w = waiting.get(m.id);
      if (w) {
        waiting.delete(m.id);
        w(m);
      }
    });
    proc.on('exit', (code, signal) => {
      if (this.proc === proc) this.proc = null;
      for (const [, w] of waiting) w({ error: `engine process ended (${signal ?? `exit ${code}`})`, crashed: true });
      waiting.clear();
    });
    await ready;
    const loaded = await this.request({ op: 'load', ...this.loadMessage }, 3600e3);
    if (!loaded.ok) {
      this.dead = loaded.error ?? 'load failed';
      this.stop();
    } else if (!this.loaded) this.loaded = loaded;
    return loaded;
  }

  request(message, timeoutMs) {
    if (!this.proc) return Promise.resolve({ error: 'engine not running', crashed: true });
    const id = this.nextId++;
    const waiting = this.waiting;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        this.stop();
        resolve({ error: `timeout (over ${timeoutMs / 1000} s; the engine's process was ended)`, timeout: true });
      }, timeoutMs);
      waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.proc.send({ id, ...message });
    });
  }

  stop() {
    if (this.proc) {
      this.notePeak(peakRssOf(this.proc.pid));
      this.proc.kill('SIGKILL');
      this.proc = null;
    }
  }

  /** Restarts the engine after a crash or a timeout (its tables loaded again). */
  async ensure() {
    if (this.dead || this.proc) return !this.dead;
    this.restarts += 1;
    log(`   restarting ${this.kind} (restart ${this.restarts})`);
    const loaded = await this.start();
    return loaded.ok;
  }
}

/** bench/wasm's own npm project (duckdb-wasm, apache-arrow), installed on first use. */
export function ensureNodeModules() {
  if (fs.existsSync(path.join(HERE, 'node_modules', '@duckdb', 'duckdb-wasm', 'package.json'))) return;
  log('==> installing bench/wasm\'s own dependencies (npm ci, into bench/wasm/node_modules)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', HERE], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm ci in bench/wasm failed (${r.error?.message ?? `exit ${r.status}`})`);
}
