// A Node script that ends must end the process: a fresh `node` runs a user's script
// (fixtures/node-exit-script.mjs) on each flavour, through LaneQL.create() and through
// LaneQL.createWorker(), with and without close(); it must print the right answer and exit by
// itself with status 0. Neither the threaded flavour's pthread Workers nor createWorker()'s
// worker_threads Worker may keep Node alive once the script's work is done.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_FLAVOURS } from './flavours.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/node-exit-script.mjs', import.meta.url));
const POOL_GROWS = fileURLToPath(new URL('./fixtures/node-exit-pool-grows.mjs', import.meta.url));
/** Generous: loading a module and answering takes a few seconds even on a busy machine. */
const EXIT_WITHIN_MS = 30_000;

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether it was still running after EXIT_WITHIN_MS and we killed it. */
  killed: boolean;
}

function runScript(script: string, args: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, EXIT_WITHIN_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, killed });
    });
  });
}

function expectedLine(flavour: string): string {
  return JSON.stringify({
    flavour,
    groups: [
      { k: 'a', s: '9' },
      { k: 'b', s: '2' },
      { k: 'c', s: '4' },
    ],
    hits: [{ n: '50000' }],
  });
}

describe.each(NODE_FLAVOURS)('flavour %s: a script that ends ends the process', (flavour) => {
  it.each([
    ['create', 'no-close'],
    ['create', 'close'],
    ['worker', 'no-close'],
    ['worker', 'close'],
  ])('LaneQL.%s, %s', async (api, closing) => {
    const run = await runScript(SCRIPT, [api, flavour, closing]);
    expectExitedAndPrinted(run, expectedLine(flavour));
  }, EXIT_WITHIN_MS + 15_000);
});

describe('flavour simd128-mt: the pthread pool', () => {
  it('a Worker it adds beyond its 8 does not keep Node alive either', async () => {
    const run = await runScript(POOL_GROWS);
    expectExitedAndPrinted(run, JSON.stringify({ before: 8, after: 9 }));
  }, EXIT_WITHIN_MS + 15_000);
});

function expectExitedAndPrinted(run: Run, line: string): void {
  const context = `stdout: ${run.stdout}\nstderr: ${run.stderr}`;
  expect(run.killed, `still running after ${EXIT_WITHIN_MS} ms\n${context}`).toBe(false);
  expect(run.signal, context).toBeNull();
  expect(run.status, context).toBe(0);
  expect(run.stdout.trim(), context).toBe(line);
}
