/** Pan and zoom of the drawing: one transform, kept across graph updates. */
export interface Transform {
  x: number;
  y: number;
  scale: number;
}

const MIN_SCALE = 0.1;
const MAX_SCALE = 4;

export class Viewport {
  transform: Transform = { x: 20, y: 20, scale: 1 };
  /** Whether the user has zoomed or panned (then the view is theirs, and is not re-fitted). */
  moved = false;
  private group: SVGGElement | undefined;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly svg: SVGSVGElement) {
    let drag: { x: number; y: number } | undefined;
    svg.addEventListener('pointerdown', (event) => {
      if ((event.target as Element).closest('.node, .edge, .cluster-title')) return;
      drag = { x: event.clientX, y: event.clientY };
      svg.setPointerCapture(event.pointerId);
    });
    svg.addEventListener('pointermove', (event) => {
      if (!drag) return;
      this.transform = {
        ...this.transform,
        x: this.transform.x + event.clientX - drag.x,
        y: this.transform.y + event.clientY - drag.y,
      };
      drag = { x: event.clientX, y: event.clientY };
      this.moved = true;
      this.apply();
    });
    svg.addEventListener('pointerup', () => (drag = undefined));
    // The wheel scrolls, as in an editor (a graph fitted to its width is read by scrolling); with Ctrl or ⌘ (and a
    // pinch) it zooms.
    svg.addEventListener(
      'wheel',
      (event) => {
        event.preventDefault();
        if (event.ctrlKey || event.metaKey) {
          const box = svg.getBoundingClientRect();
          this.zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - box.left, event.clientY - box.top);
        } else {
          this.moved = true;
          const [dx, dy] = event.shiftKey ? [event.deltaY, event.deltaX] : [event.deltaX, event.deltaY];
          this.transform = { ...this.transform, x: this.transform.x - dx, y: this.transform.y - dy };
          this.apply();
        }
      },
      { passive: false },
    );
  }

  attach(group: SVGGElement): void {
    this.group = group;
    this.apply();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  zoomAt(factor: number, x: number, y: number): void {
    this.moved = true;
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.transform.scale * factor));
    const ratio = scale / this.transform.scale;
    this.transform = { scale, x: x - (x - this.transform.x) * ratio, y: y - (y - this.transform.y) * ratio };
    this.apply();
  }

  zoom(factor: number): void {
    const box = this.svg.getBoundingClientRect();
    this.zoomAt(factor, box.width / 2, box.height / 2);
  }

  /**
   * Fits a width × height drawing into the visible area, never enlarging
   * past 1:1 and never shrinking below `readable` (the zoom at which step
   * names stay legible). When the whole drawing would need less, it fits
   * across the layout's direction instead (the width of a top-down graph,
   * the height of a left-to-right one) and starts at the beginning; the
   * rest is reached by scrolling.
   */
  fit(width: number, height: number, readable = MIN_SCALE, along: 'vertical' | 'horizontal' = 'vertical'): void {
    const box = this.svg.getBoundingClientRect();
    const across =
      along === 'vertical' ? (box.width - 40) / Math.max(width, 1) : (box.height - 40) / Math.max(height, 1);
    const whole = Math.min(
      1,
      across,
      along === 'vertical' ? (box.height - 40) / Math.max(height, 1) : (box.width - 40) / Math.max(width, 1),
    );
    const scale = Math.max(MIN_SCALE, whole >= readable ? whole : Math.max(readable, Math.min(1, across)));
    const centred = (room: number, size: number) => Math.max(20, (room - size * scale) / 2);
    this.transform = { scale, x: centred(box.width, width), y: centred(box.height, height) };
    this.moved = false;
    this.apply();
  }

  /**
   * Scrolls across the reading direction (sideways for 'vertical', up or down for 'horizontal') so that a box of the
   * drawing is in view, centred on that axis when it is not; along the direction the view stays where it is.
   */
  revealAcross(x: number, y: number, width: number, height: number, along: 'vertical' | 'horizontal'): void {
    const box = this.svg.getBoundingClientRect();
    const { scale } = this.transform;
    const [offset, start, size, room] =
      along === 'vertical' ? [this.transform.x, x, width, box.width] : [this.transform.y, y, height, box.height];
    const from = offset + start * scale;
    if (from >= 0 && from + size * scale <= room) return;
    const centred = room / 2 - (start + size / 2) * scale;
    this.transform = along === 'vertical' ? { ...this.transform, x: centred } : { ...this.transform, y: centred };
    this.apply();
  }

  /** Brings a point of the drawing to the centre of the view. */
  center(x: number, y: number): void {
    const box = this.svg.getBoundingClientRect();
    this.transform = {
      ...this.transform,
      x: box.width / 2 - x * this.transform.scale,
      y: box.height / 2 - y * this.transform.scale,
    };
    this.apply();
  }

  /**
   * Scrolls (never zooms) a box of the drawing into view: when any of it is outside the view, it comes to the centre.
   */
  reveal(x: number, y: number, width: number, height: number): void {
    const box = this.svg.getBoundingClientRect();
    const { scale } = this.transform;
    const left = this.transform.x + x * scale;
    const top = this.transform.y + y * scale;
    const inside = left >= 0 && top >= 0 && left + width * scale <= box.width && top + height * scale <= box.height;
    if (!inside) this.center(x + width / 2, y + height / 2);
  }

  private apply(): void {
    this.group?.setAttribute(
      'transform',
      `translate(${this.transform.x},${this.transform.y}) scale(${this.transform.scale})`,
    );
    for (const listener of this.listeners) listener();
  }
}
