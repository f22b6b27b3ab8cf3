// The demo page: starts the main engine, wires the panels, and loads a first table.
// URL parameters: rows=N and seed=S set the first table; autoload=0 starts without one.
import type { DemoContext } from './context.js';
import { DataPanel } from './data-panel.js';
import { byId } from './dom.js';
import { describeEngine, Engines } from './engines.js';
import { JoinPanel } from './join-panel.js';
import { LikePanel } from './like-panel.js';
import { QueryPanel } from './query-panel.js';
import { RacePanel } from './race-panel.js';
import { SmallKeyPanel } from './small-key-panel.js';
import type { TableStats } from './table-stats.js';
import { TimelinePanel } from './timeline-panel.js';
import './style.css';

const statusLine = byId('status');
function status(message: string): void {
  statusLine.textContent = message;
}

// Threads need shared wasm memory, which browsers allow only on a cross-origin isolated page.
function isolationNote(): string {
  return globalThis.crossOriginIsolated
    ? 'cross-origin isolated: threads on'
    : 'not cross-origin isolated: one thread (serve with COOP/COEP for threads)';
}

async function start(): Promise<void> {
  const engineInfo = byId('engine-info');
  let engines: Engines;
  try {
    engines = await Engines.start();
  } catch (error) {
    engineInfo.textContent = `The engine could not start: ${error instanceof Error ? error.message : String(error)}`;
    document.body.dataset.state = 'error';
    return;
  }
  const info = engines.main.info;
  engineInfo.textContent = `Engine: ${describeEngine(info)} · laneql ${info.version} · ${isolationNote()}`;
  Object.assign(engineInfo.dataset, { flavour: info.flavour, target: info.target, threads: String(info.threads) });

  let table: TableStats | null = null;
  let query: QueryPanel | null = null;
  const context: DemoContext = {
    engines,
    table: () => table,
    tableChanged: (stats) => (table = stats),
    editorSql: () => query?.sql ?? '',
    status,
  };
  const timeline = new TimelinePanel();
  const data = new DataPanel(context);
  let joins: JoinPanel | null = null;
  query = new QueryPanel(context, (t) => {
    timeline.show(t);
    joins?.show(t);
  });
  const queryPanel = query;
  joins = new JoinPanel(context, (sql) => queryPanel.runSql(sql));
  new RacePanel(context);
  new LikePanel(context);
  new SmallKeyPanel(context);
  document.body.dataset.state = 'ready';

  const params = new URLSearchParams(location.search);
  if (params.get('autoload') !== '0') {
    if (params.has('rows')) byId<HTMLInputElement>('rows-input').value = params.get('rows')!;
    if (params.has('seed')) byId<HTMLInputElement>('seed-input').value = params.get('seed')!;
    await data.generate();
    if (table !== null) await query.run();
  }
}

void start();
