// Finds where a value or key sits in the eval file, from a JSON pointer path, via the yaml document's ranges.
import { isMap, isScalar, isSeq } from 'yaml';
import type { Document, LineCounter, Node, Pair } from 'yaml';
import type { PathSegment, SourcePosition } from '../errors.js';

export class YamlLocator {
  constructor(
    private readonly file: string,
    private readonly doc: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  /** The value at `segments`, or the nearest ancestor that exists (a missing key is reported at its mapping). */
  valueAt(segments: readonly PathSegment[]): SourcePosition {
    let node = this.doc.contents as Node | null;
    let found = node;
    for (const segment of segments) {
      node = child(node, segment);
      if (!node) break;
      found = node;
    }
    return this.at(found);
  }

  /** The key `name` of the mapping at `segments` (where an unknown key is reported). */
  keyAt(segments: readonly PathSegment[], name: string): SourcePosition {
    const parent = this.nodeAt(segments);
    const pair = isMap(parent) ? parent.items.find((item: Pair) => isScalar(item.key) && String(item.key.value) === name) : undefined;
    return pair && isScalar(pair.key) ? this.at(pair.key) : this.valueAt(segments);
  }

  nodeAt(segments: readonly PathSegment[]): Node | null {
    let node = this.doc.contents as Node | null;
    for (const segment of segments) node = child(node, segment);
    return node;
  }

  at(node: Node | null | undefined): SourcePosition {
    const offset = node?.range?.[0];
    if (offset === undefined) return { file: this.file, line: 1, column: 1 };
    const { line, col } = this.lineCounter.linePos(offset);
    return { file: this.file, line, column: col };
  }
}

/** The value under `segment`; for "key:" with nothing after it, the key itself (the place to point at). */
function child(node: Node | null, segment: PathSegment): Node | null {
  if (isMap(node)) {
    const pair = node.items.find((item: Pair) => isScalar(item.key) && String(item.key.value) === String(segment));
    const value = pair?.value as Node | null | undefined;
    return value?.range ? value : ((pair?.key as Node | undefined) ?? null);
  }
  if (isSeq(node) && typeof segment === 'number') return (node.items[segment] as Node | undefined) ?? null;
  return null;
}
