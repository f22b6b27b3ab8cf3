// The profile timeline: one lane per thread, a box per span placed by its start and length,
// coloured by phase. Boxes are positioned in percent, so the chart fits any width without
// redrawing; each one's title (and aria-label, for keyboard focus) gives its numbers.
import { byId, el } from './dom.js';
import { formatBytes, formatCount, formatMs } from './format.js';
import { PHASE_LABELS, type Phase, type Span, type Timeline } from './profile.js';

// Hundreds of morsels are possible: only the first few per lane take keyboard focus.
const FOCUSABLE_PER_LANE = 12;

function describeSpan(span: Span): string {
  return `${span.name}: ${formatMs(span.duration / 1000)} from ${formatMs(span.start / 1000)}, ` +
    `${formatCount(span.rows)} rows, ${formatBytes(span.bytes)}, ${formatCount(span.probes)} hash probes`;
}

function axis(endUs: number): HTMLElement {
  const ticks = el('div', { class: 'timeline-axis', 'aria-hidden': 'true' });
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    ticks.append(el('span', { style: `left: ${fraction * 100}%` }, formatMs((endUs * fraction) / 1000)));
  }
  return ticks;
}

export class TimelinePanel {
  readonly #chart = byId('timeline');
  readonly #summary = byId('timeline-summary');

  constructor() {
    const legend = byId('timeline-legend');
    for (const phase of Object.keys(PHASE_LABELS) as Phase[]) {
      legend.append(el('li', {}, el('span', { class: `swatch phase-${phase}`, 'aria-hidden': 'true' }), PHASE_LABELS[phase]));
    }
    this.show(null);
  }

  show(timeline: Timeline | null): void {
    if (timeline === null || timeline.spans.length === 0) {
      this.#chart.replaceChildren(el('p', { class: 'empty' },
        timeline === null ? 'Run a query to see its timeline.' : 'This query read no column data: nothing to draw.'));
      this.#summary.textContent = '';
      this.#chart.dataset.spans = '0';
      return;
    }
    const end = Math.max(timeline.endUs, 1e-3);
    const lanes = timeline.threads.map(({ tid, name }) => {
      const spans = timeline.spans.filter((s) => s.tid === tid);
      const track = el('div', { class: 'timeline-track' });
      spans.forEach((span, i) => {
        const text = describeSpan(span);
        const box = el('span', {
          class: `timeline-span phase-${span.phase}`,
          style: `left: ${(span.start / end) * 100}%; width: ${(span.duration / end) * 100}%`,
          title: text,
          'aria-label': text,
          role: 'img',
          'data-phase': span.phase,
          ...(i < FOCUSABLE_PER_LANE ? { tabindex: 0 } : {}),
        });
        track.append(box);
      });
      const busyUs = spans.reduce((sum, s) => sum + s.duration, 0);
      return el('div', { class: 'timeline-lane', 'data-tid': tid },
        el('span', { class: 'timeline-label' }, name, el('small', {}, `${Math.round((busyUs / end) * 100)}% busy`)),
        track);
    });
    this.#chart.replaceChildren(...lanes, el('div', { class: 'timeline-lane axis-lane' }, el('span', { class: 'timeline-label' }), axis(end)));
    this.#chart.dataset.spans = String(timeline.spans.length);
    this.#chart.dataset.threads = String(timeline.threads.length);
    const scans = timeline.spans.filter((s) => s.phase === 'scan').length;
    this.#summary.textContent =
      `${formatCount(timeline.spans.length)} spans on ${timeline.threads.length} thread${timeline.threads.length === 1 ? '' : 's'}: ` +
      `${formatCount(scans)} scan morsels read ${formatCount(timeline.scannedRows)} rows ` +
      `(${formatBytes(timeline.scannedBytes)}) in ${formatMs(end / 1000)}.`;
  }
}
