// Small DOM helpers: the page is plain DOM, built from index.html's skeleton.

/** The element with this id, which index.html must contain. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`index.html lacks #${id}`);
  return element as T;
}

type Child = Node | string | null | undefined | false;

/** A new element with attributes (class, data-*, aria-*, ...) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** One term and value of a <dl>, grouped in a <div> (which HTML allows) so that they stay together. */
export function statItem(term: string, value: string): HTMLDivElement {
  return el('div', { class: 'stat' }, el('dt', {}, term), el('dd', {}, value));
}

/** An SVG element (namespaced) with attributes. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/**
 * Runs `task` with `button` disabled and `box` marked busy (data-state="busy", then "done" or
 * "error"), so that one click cannot start a task twice and tests can wait for the outcome.
 */
export async function busy<T>(button: HTMLButtonElement, box: HTMLElement, task: () => Promise<T>): Promise<T | undefined> {
  if (button.disabled) return undefined;
  button.disabled = true;
  box.dataset.state = 'busy';
  box.setAttribute('aria-busy', 'true');
  try {
    const value = await task();
    box.dataset.state = 'done';
    return value;
  } catch (error) {
    box.dataset.state = 'error';
    throw error;
  } finally {
    box.removeAttribute('aria-busy');
    button.disabled = false;
  }
}
