// YAML parsed with limits, for every YAML file the product reads (eval files, datasets, front matter): the yaml
// library builds a document recursively, so a small file nested thousands deep exhausts the stack and can abort the
// whole process (V8 fails to compile a RegExp near the stack's end instead of throwing), and aliases can expand a few
// hundred bytes into billions of values ("billion laughs"). Both are refused at their line, with how to fix them.
import { Composer, isAlias, Parser, visit, YAMLParseError } from 'yaml';
import type { CST, Document, LineCounter, Node } from 'yaml';
import { InputError } from '../errors.js';
import type { SourcePosition } from '../errors.js';

/** Collections inside collections: far beyond any real eval file, row or front matter; far below the stack's end. */
export const MAX_YAML_DEPTH = 200;

/** An offset into the parsed text as a position in the user's file (front matter starts below line 1). */
export type YamlWhere = (offset: number) => SourcePosition;

/** The parsed document; throws an InputError at the first collection nested deeper than MAX_YAML_DEPTH. */
export function parseBoundedYaml(text: string, lineCounter: LineCounter, where: YamlWhere): Document.Parsed {
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const tooDeep = firstTooDeep(tokens);
  if (tooDeep !== undefined) {
    throw new InputError(where(tooDeep), `the YAML nests lists and mappings more than ${MAX_YAML_DEPTH} deep`, `flatten it: no real file needs more than ${MAX_YAML_DEPTH} levels`);
  }
  let doc: Document.Parsed | undefined;
  for (const next of new Composer({ prettyErrors: false }).compose(tokens, true, text.length)) {
    if (!doc) doc = next;
    else {
      // As parseDocument says it: an eval file, a dataset or front matter is one document.
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
      break;
    }
  }
  return doc!;
}

/**
 * A node (the whole document when none is given) as plain data; throws an InputError at the first alias when the
 * aliases expand too much, instead of the library's bare "Excessive alias count" error.
 */
export function boundedYamlValue(doc: Document, where: YamlWhere, node?: Node): unknown {
  try {
    return node === undefined ? doc.toJS() : node.toJS(doc);
  } catch (error) {
    if (!(error instanceof ReferenceError) || !/alias/i.test(error.message)) throw error;
    throw new InputError(where(firstAliasOffset(doc)), 'the YAML aliases (*name) expand into too many values (a "billion laughs" document)', 'write the values out, or refer to each anchor (&name) only a few times');
  }
}

function firstAliasOffset(doc: Document): number {
  let offset = 0;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) {
        offset = node.range[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return offset;
}

/** The offset of the first collection deeper than the limit, walked without recursion; undefined when none is. */
function firstTooDeep(tokens: readonly CST.Token[]): number | undefined {
  const stack: Array<{ token: CST.Token | undefined; depth: number }> = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (!token) continue;
    if (token.type === 'document') {
      stack.push({ token: token.value, depth });
      continue;
    }
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > MAX_YAML_DEPTH) return token.offset;
    for (const item of token.items) {
      const entry = item as { key?: CST.Token | null; value?: CST.Token };
      if (entry.key) stack.push({ token: entry.key, depth: depth + 1 });
      stack.push({ token: entry.value, depth: depth + 1 });
    }
  }
  return undefined;
}
