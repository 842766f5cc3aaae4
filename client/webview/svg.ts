// Making SVG elements, and texts cut to fit with the whole text on hover.

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with `attributes`, added to `parent` when given. */
export function element<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number> = {},
  parent?: Element,
): SVGElementTagNameMap[K] {
  const created = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) created.setAttribute(key, String(value));
  parent?.appendChild(created);
  return created;
}

/** A text element holding `content`. */
export function text(content: string, attributes: Record<string, string | number>, parent: Element): SVGTextElement {
  const node = element('text', attributes, parent);
  node.textContent = content;
  return node;
}

/**
 * Gives what is drawn in `parent` from now on a hover text, by wrapping it in a group titled `full` (the text itself
 * keeps only what it shows).
 */
export function hoverGroup(full: string, parent: Element): SVGGElement {
  const group = element('g', {}, parent);
  element('title', {}, group).textContent = full;
  return group;
}

/** A text cut to fit; when cut, the full text is one hover away. */
export function fitted(
  full: string,
  shown: string,
  attributes: Record<string, string | number>,
  parent: Element,
): SVGTextElement {
  return text(shown, attributes, shown === full ? parent : hoverGroup(full, parent));
}
