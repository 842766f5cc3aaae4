import type { Layout } from './layout';
import type { Viewport } from './viewport';

const SVG = 'http://www.w3.org/2000/svg';

/**
 * A miniature of the whole graph with the visible area marked; clicking it
 * moves the view there. Shown while part of the graph is out of view (one
 * fitted to its width, or zoomed in), in a lane of its own beside the
 * drawing (right of a top-down graph, under a left-to-right one) rather
 * than over it: it never hides a node.
 */
export class Overview {
  private layout: Layout | undefined;
  /**
   * The layout the miniature was last drawn for: it is drawn only while shown (a hidden SVG has no size to scale to).
   */
  private drawn: Layout | undefined;
  /** The scale it was drawn at: the lane changes size with the layout's direction and the panel. */
  private drawnScale = 0;
  private readonly frame: SVGRectElement;

  constructor(
    private readonly svg: SVGSVGElement,
    private readonly main: SVGSVGElement,
    private readonly viewport: Viewport,
  ) {
    this.frame = document.createElementNS(SVG, 'rect');
    this.frame.setAttribute('class', 'overview-frame');
    viewport.onChange(() => this.update());
    svg.addEventListener('pointerdown', (event) => {
      if (!this.layout) return;
      const box = svg.getBoundingClientRect();
      const scale = this.scale();
      this.viewport.center((event.clientX - box.left) / scale, (event.clientY - box.top) / scale);
    });
  }

  show(layout: Layout): void {
    this.layout = layout;
    this.update();
  }

  private scale(): number {
    const box = this.svg.getBoundingClientRect();
    return this.layout
      ? Math.min(box.width / Math.max(this.layout.width, 1), box.height / Math.max(this.layout.height, 1))
      : 1;
  }

  private draw(layout: Layout): void {
    this.drawn = layout;
    this.drawnScale = this.scale();
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
  }

  private update(): void {
    if (!this.layout) return;
    // Judged against the whole room (the drawing's and the lane's): a drawing that fits there needs no lane, and one
    // that does not still does not once the lane takes its part (which keeps the lane from coming and going).
    const room = this.main.parentElement!.getBoundingClientRect();
    const { x, y, scale: zoom } = this.viewport.transform;
    const outside =
      x < 0 || y < 0 || x + this.layout.width * zoom > room.width || y + this.layout.height * zoom > room.height;
    this.main.parentElement!.classList.toggle('lane-right', this.layout.direction === 'DOWN');
    this.main.parentElement!.classList.toggle('lane-bottom', this.layout.direction !== 'DOWN');
    this.svg.toggleAttribute('hidden', !outside);
    if (this.svg.hasAttribute('hidden')) return;
    const view = this.main.getBoundingClientRect();
    const scale = this.scale();
    if (this.drawn !== this.layout || this.drawnScale !== scale) this.draw(this.layout);
    this.frame.setAttribute('x', String((-x / zoom) * scale));
    this.frame.setAttribute('y', String((-y / zoom) * scale));
    this.frame.setAttribute('width', String((view.width / zoom) * scale));
    this.frame.setAttribute('height', String((view.height / zoom) * scale));
  }
}
