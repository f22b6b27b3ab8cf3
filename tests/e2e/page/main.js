// Reads the case from the query string (?where=main|worker&flavour=&rows=&seed=), runs it and
// shows a summary; the test reads window.laneqlResult once body[data-state] is 'done'.
import { compute, computeInPackageWorker } from './compute.js';

function runInWorker(params) {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      resolve({ error: { name: 'WorkerError', message: event.message || 'the worker failed to load' } });
    };
    worker.postMessage(params);
  });
}

function render(where, result) {
  const rows = [['runs in', where]];
  if (result.environment) {
    rows.push(['crossOriginIsolated', String(result.environment.crossOriginIsolated)]);
  }
  if (result.info) {
    const { info } = result;
    rows.push(
      ['flavour', info.flavour],
      ['target', info.target],
      ['threads', String(info.threads)],
      ['version', info.version],
    );
  }
  if (result.info && result.sumFloat64) {
    rows.push(
      ['sumFloat64', `${result.sumFloat64Value} (0x${result.sumFloat64})`],
      ['sumInt64', result.sumInt64],
      ['float bits, threads 1–4', result.sumFloat64ByThreads.join(' ')],
    );
  }
  if (result.sql) rows.push(['SQL on generated hits', result.sql.map((text) => text.split('\n')[0]).join(' | ')]);
  if (result.error) rows.push(['error', `${result.error.name}: ${result.error.message}`]);
  const table = document.getElementById('summary');
  for (const [name, value] of rows) {
    const tr = table.insertRow();
    const th = document.createElement('th');
    th.textContent = name;
    tr.append(th);
    const td = tr.insertCell();
    td.textContent = value;
    if (name === 'error') td.className = 'error';
  }
  document.getElementById('status').textContent = result.error ? 'finished with an error' : 'done';
}

const query = new URLSearchParams(location.search);
const where = ['worker', 'package-worker'].includes(query.get('where')) ? query.get('where') : 'main';
const params = {
  flavour: query.get('flavour') || undefined,
  rows: Number(query.get('rows') ?? 1000),
  seed: Number(query.get('seed') ?? 1),
};
let result;
try {
  result =
    where === 'worker'
      ? await runInWorker(params)
      : where === 'package-worker'
        ? await computeInPackageWorker(params)
        : await compute(params);
} catch (error) {
  result = { error: { name: error?.name, message: String(error?.message ?? error) } };
}
render({ worker: 'module Worker', 'package-worker': 'LaneQL.createWorker()', main: 'main thread' }[where], result);
window.laneqlResult = result;
document.body.dataset.state = 'done';
