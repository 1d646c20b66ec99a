// YAML dataset reader (.yaml, .yml): a top-level list of mappings, each row's line taken from the document.
import { isMap, isSeq, LineCounter } from 'yaml';
import type { Node } from 'yaml';
import { InputError } from '../errors.js';
import { boundedYamlValue, parseBoundedYaml } from './boundedYaml.js';
import { readWholeText } from './lines.js';
import type { RawItem } from './reader.js';
import { describeJsonType } from './reader.js';

const LIST_HINT = 'a YAML dataset is a list of rows, each a mapping: "- query: …\\n  answer: …"';

/** Not streamed: the yaml library parses a document whole. */
export async function* readYamlDataset(file: string, signal?: AbortSignal): AsyncGenerator<RawItem> {
  const text = await readWholeText(file, signal);
  if (text instanceof InputError) {
    yield text;
    return;
  }
  const lineCounter = new LineCounter();
  const where = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  let doc;
  try {
    doc = parseBoundedYaml(text, lineCounter, where);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    yield error;
    return;
  }
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      yield new InputError({ file, line, column: col }, `invalid YAML: ${error.message}`, LIST_HINT);
    }
    return;
  }
  const contents = doc.contents;
  if (contents === null) return;
  if (!isSeq(contents)) {
    yield new InputError(at(file, lineCounter, contents), 'the file is not a list of rows', LIST_HINT);
    return;
  }
  for (const [index, item] of contents.items.entries()) {
    signal?.throwIfAborted();
    const position = at(file, lineCounter, item as Node | null);
    let value: unknown;
    try {
      value = item === null ? null : boundedYamlValue(doc, where, item as Node);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      yield error;
      continue;
    }
    yield isMap(item)
      ? { line: position.line ?? 1, data: value as Record<string, unknown> }
      : new InputError(position, `list item ${index + 1} is ${describeJsonType(value)}, not a mapping`, LIST_HINT);
  }
}

function at(file: string, lineCounter: LineCounter, node: Node | null): { file: string; line?: number; column?: number } {
  if (!node?.range) return { file };
  const { line, col } = lineCounter.linePos(node.range[0]);
  return { file, line, column: col };
}
