// Horizontal bar charts as plain HTML (a list of labelled bars): readable by screen readers,
// responsive without redrawing, and every bar carries its number in data-value for the tests.
import { el } from './dom.js';

export interface Bar {
  label: string;
  value: number;
  /** The number as shown next to the bar. */
  text: string;
  /** A second line under the label (e.g. the engine's target and threads). */
  detail?: string;
  /** A CSS modifier for the bar's colour. */
  tone?: string;
}

export interface BarOptions {
  /** 'log' for counts that span orders of magnitude (bar length ~ log10(value + 1)). */
  scale?: 'linear' | 'log';
  caption?: string;
}

export function renderBars(container: HTMLElement, bars: Bar[], options: BarOptions = {}): void {
  const scale = options.scale ?? 'linear';
  const measure = (v: number) => (scale === 'log' ? Math.log10(Math.max(v, 0) + 1) : Math.max(v, 0));
  const top = Math.max(...bars.map((b) => measure(b.value)), Number.MIN_VALUE);
  const list = el('ul', { class: 'bars' });
  for (const bar of bars) {
    const width = (measure(bar.value) / top) * 100;
    list.append(
      el('li', { class: 'bar-row', 'data-label': bar.label, 'data-value': bar.value },
        el('span', { class: 'bar-label' }, bar.label, bar.detail ? el('small', {}, bar.detail) : null),
        el('span', { class: 'bar-track', 'aria-hidden': 'true' },
          el('span', { class: `bar-fill${bar.tone ? ` bar-${bar.tone}` : ''}`, style: `width: ${width.toFixed(2)}%` })),
        el('span', { class: 'bar-value' }, bar.text)),
    );
  }
  const figure = el('figure', { class: 'bar-chart' }, list);
  if (options.caption) figure.append(el('figcaption', {}, options.caption));
  container.replaceChildren(figure);
}
