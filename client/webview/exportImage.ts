import type { Layout } from './layout';

/** The drawing as a standalone SVG document, with the current theme's colours inlined. */
export function exportSvg(svg: SVGSVGElement, layout: Layout): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const margin = 20;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(layout.width + margin * 2));
  copy.setAttribute('height', String(layout.height + margin * 2));
  copy.setAttribute('viewBox', `${-margin} ${-margin} ${layout.width + margin * 2} ${layout.height + margin * 2}`);
  copy.querySelector('.viewport')?.removeAttribute('transform');
  inlineStyles(svg, copy);
  return new XMLSerializer().serializeToString(copy);
}

/**
 * Copies computed styles onto the clone as SVG presentation attributes, so
 * the file looks the same outside the editor. Attributes, not a `style`
 * attribute: the webview's Content-Security-Policy forbids inline styles.
 */
function inlineStyles(source: Element, target: Element): void {
  const style = getComputedStyle(source);
  const keep = [
    'fill',
    'stroke',
    'stroke-width',
    'stroke-dasharray',
    'font-family',
    'font-size',
    'font-weight',
    'opacity',
    'fill-opacity',
  ];
  for (const name of keep) target.setAttribute(name, style.getPropertyValue(name));
  for (let i = 0; i < source.children.length; i++) inlineStyles(source.children[i], target.children[i]);
}

/** The SVG rendered onto a canvas at twice the size, as a PNG data URL. */
export async function exportPng(svgText: string, width: number, height: number): Promise<string> {
  const image = new Image();
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error('the SVG could not be drawn'));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  await loaded;
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil((width + 40) * 2);
  canvas.height = Math.ceil((height + 40) * 2);
  const context = canvas.getContext('2d')!;
  context.fillStyle = getComputedStyle(document.body).backgroundColor || '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png');
}
