// Building DOM nodes from data. Text always goes in as text nodes (never innerHTML), so a key name like
// "<img onerror=…>" stays text; and no style attributes, which the page's CSP would refuse anyway.

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined>;

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node: Element, attributes: Attributes, children: Child[]): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
}

/** An HTML element: `h("td", { class: "num" }, "42")`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  fill(node, attributes, children);
  return node;
}

/** An SVG element, in the SVG namespace (createElement would make an inert HTML element). */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  fill(node, attributes, children);
  return node;
}

/** An element the page's HTML must have; a missing one is a build mistake, so fail loudly. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from account.html`);
  return node as T;
}

/** Shows or hides an error line (role=alert, so screen readers read it when it appears). */
export function showError(node: HTMLElement, message: string | null): void {
  node.textContent = message ?? "";
  node.hidden = message === null;
}

/** Says something to screen-reader users without moving their focus. */
export function announce(message: string): void {
  const region = byId("announcer");
  // Clearing first makes the same message twice in a row be read twice.
  region.textContent = "";
  requestAnimationFrame(() => (region.textContent = message));
}
