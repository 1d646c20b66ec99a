// Turns a chart drawn in the page into a standalone SVG file (theme colours resolved) and into a PNG through a canvas.

/** Properties a chart's stylesheet sets that a standalone file must carry as presentation attributes. */
const PAINT = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'fill-opacity', 'stroke-opacity', 'opacity'] as const;
const FONT = ['font-family', 'font-size', 'font-weight', 'text-anchor'] as const;
const SVG_NS = 'http://www.w3.org/2000/svg';
const HEADING_BAND = 24;

/**
 * Serialises `svg` with every colour and font the page's CSS gave it written onto the elements, because the
 * shadow-root stylesheet (and the `--vscode-*` variables it reads) do not travel with the file. Attributes the
 * chart set itself (a cell's data colour, a pattern fill) are kept as they are. `skip` names elements whose
 * interaction styling (hover, focus outlines) must not be frozen into the file. A `heading` goes in a band above
 * the chart, painted like the chart's `rect.bg`.
 */
export function serializeSvg(svg: SVGSVGElement, options: { width: number; height: number; title: string; heading?: string; skip?: (el: Element) => string[] }): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const originals = [svg, ...svg.querySelectorAll('*')];
  const copies = [clone, ...clone.querySelectorAll('*')];
  originals.forEach((original, i) => {
    const copy = copies[i]!;
    const computed = getComputedStyle(original);
    const skipped = options.skip?.(original) ?? [];
    const props: readonly string[] = original instanceof SVGTextElement || original instanceof SVGTSpanElement ? [...PAINT, ...FONT] : PAINT;
    const stroked = computed.getPropertyValue('stroke') !== 'none' && !skipped.includes('stroke');
    for (const prop of props) {
      if (copy.hasAttribute(prop) || skipped.includes(prop)) continue;
      const value = computed.getPropertyValue(prop);
      if (!value || (prop.endsWith('opacity') && value === '1') || (prop.startsWith('stroke-') && !stroked)) continue;
      copy.setAttribute(prop, value);
    }
    for (const attribute of ['tabindex', 'aria-describedby']) copy.removeAttribute(attribute);
  });
  removeComments(clone);
  let height = options.height;
  if (options.heading) {
    // A band above the chart for the heading, in the font and colour of the chart's own text.
    const band = HEADING_BAND;
    height += band;
    clone.setAttribute('viewBox', `0 ${-band} ${options.width} ${height}`);
    const sample = svg.querySelector('text');
    const style = sample ? getComputedStyle(sample) : undefined;
    const background = svg.querySelector('rect.bg');
    const fill = document.createElementNS(SVG_NS, 'rect');
    for (const [k, v] of Object.entries({ x: '0', y: String(-band), width: String(options.width), height: String(band), fill: background ? getComputedStyle(background).fill : 'none' })) fill.setAttribute(k, v);
    const heading = document.createElementNS(SVG_NS, 'text');
    for (const [k, v] of Object.entries({ x: '8', y: String(-band / 2 + 5), 'font-size': '13px', 'font-weight': '600', fill: style?.fill ?? 'currentColor', 'font-family': style?.fontFamily ?? 'sans-serif' })) heading.setAttribute(k, v);
    heading.textContent = options.heading;
    clone.insertBefore(heading, clone.firstChild);
    clone.insertBefore(fill, clone.firstChild);
  }
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('width', String(options.width));
  clone.setAttribute('height', String(height));
  clone.removeAttribute('class');
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = options.title;
  clone.insertBefore(title, clone.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`;
}

/** Lit's template markers are comments; a file a person opens should not carry them. */
function removeComments(root: Node): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
}

export function svgDataUrl(svgText: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
}

/** Rasterises a standalone SVG (with width and height) at `scale` × its size, through an <img> of a data: URL, which the panel's CSP allows. */
export async function svgToPngDataUrl(svgText: string, scale = 2): Promise<string> {
  const image = new Image();
  image.src = svgDataUrl(svgText);
  await image.decode();
  const width = image.naturalWidth;
  const height = image.naturalHeight;
  if (!width || !height) throw new Error('the SVG has no size to draw');
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser has no 2D canvas to draw the PNG');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png');
}

/** A file name from free text (suite and model ids hold ':' and '/'). */
export function safeFileName(text: string): string {
  return text.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 120) || 'chart';
}
