import type { Layout } from './layout';
import type { Viewport } from './viewport';

const SVG = 'http://www.w3.org/2000/svg';
/** Graphs with more nodes than this get an overview in the corner. */
const OVERVIEW_FROM = 15;

/** A miniature of the whole graph with the visible area marked; clicking it moves the view there. */
export class Overview {
  private layout: Layout | undefined;
  private readonly frame: SVGRectElement;

  constructor(private readonly svg: SVGSVGElement, private readonly main: SVGSVGElement, private readonly viewport: Viewport) {
    this.frame = document.createElementNS(SVG, 'rect');
    this.frame.setAttribute('class', 'overview-frame');
    viewport.onChange(() => this.updateFrame());
    svg.addEventListener('pointerdown', (event) => {
      if (!this.layout) return;
      const box = svg.getBoundingClientRect();
      const scale = this.scale();
      this.viewport.center((event.clientX - box.left) / scale, (event.clientY - box.top) / scale);
    });
  }

  show(layout: Layout): void {
    this.layout = layout;
    this.svg.toggleAttribute('hidden', layout.nodes.length < OVERVIEW_FROM);
    if (this.svg.hasAttribute('hidden')) return;
    this.svg.replaceChildren();
    const scale = this.scale();
    for (const node of layout.nodes) {
      const rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('class', 'overview-node');
      rect.setAttribute('x', String(node.x * scale));
      rect.setAttribute('y', String(node.y * scale));
      rect.setAttribute('width', String(Math.max(2, node.width * scale)));
      rect.setAttribute('height', String(Math.max(2, node.height * scale)));
      this.svg.appendChild(rect);
    }
    this.svg.appendChild(this.frame);
    this.updateFrame();
  }

  private scale(): number {
    const box = this.svg.getBoundingClientRect();
    return this.layout ? Math.min(box.width / Math.max(this.layout.width, 1), box.height / Math.max(this.layout.height, 1)) : 1;
  }

  private updateFrame(): void {
    if (!this.layout || this.svg.hasAttribute('hidden')) return;
    const scale = this.scale();
    const view = this.main.getBoundingClientRect();
    const { x, y, scale: zoom } = this.viewport.transform;
    this.frame.setAttribute('x', String((-x / zoom) * scale));
    this.frame.setAttribute('y', String((-y / zoom) * scale));
    this.frame.setAttribute('width', String((view.width / zoom) * scale));
    this.frame.setAttribute('height', String((view.height / zoom) * scale));
  }
}
