// The direction of imports inside src/core, as a lint rule: each folder is a layer and may import only from the
// layers below it (ARCHITECTURE.md, "Layers"). Core also never reaches out of itself: not into the VS Code
// extension, the CLI, the webview or the webview's wire format (src/protocol.ts).
//
// Why a rule of our own: eslint-plugin-import's no-restricted-paths needs a resolver that maps our `.js`
// specifiers onto `.ts` files, and skips silently what it cannot resolve. Relative paths are all core uses, and
// those resolve with path.resolve alone, so nothing here can be skipped.
import * as path from 'node:path';

/** Lowest first. The files directly in src/core (model.ts, errors.ts, stats.ts…) are the base and import nothing. */
export const CORE_LAYERS = ['(base)', 'vendor', 'data', 'traces', 'prompt', 'providers', 'retrieval', 'suites', 'spec', 'run', 'corpus', 'engine', 'explain', 'verdicts', 'report', 'agentTools'];

const WHY = {
  '(base)': 'the shapes and helpers every layer shares',
  vendor: 'third-party SDKs loaded on first use',
  data: 'reading datasets',
  traces: 'trace files in, OpenInference traces out',
  prompt: 'templates',
  providers: 'one vendor call',
  retrieval: 'a user\'s retriever: one contract for scripts, HTTP services and the rows\' passages',
  suites: 'the methods',
  spec: 'the eval file, checked against the methods',
  run: 'scheduling, caching and logging calls',
  corpus: 'a folder of documents indexed by the product: chunks, stores, search, sweeps and generated questions',
  engine: 'running an evaluation',
  explain: 'why a case came out as it did: variants of it run through the engine',
  verdicts: 'a person\'s verdicts on cases, and how far the judge agrees with them',
  report: 'what a run shows',
  agentTools: 'the tools an editor\'s agent drives the product with, one implementation for the MCP server and VS Code',
};

function coreRoot(file) {
  const marker = `${path.sep}src${path.sep}core${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : file.slice(0, at + marker.length - 1);
}

/** The layer of a file under `root` (src/core), or undefined outside it. */
function layerOf(root, file) {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  return parts.length === 1 ? '(base)' : parts[0];
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps imports inside src/core going down its layers, and core out of the extension, CLI, webview and protocol.' },
    schema: [],
    messages: {
      upward: "src/core/{{from}} ({{fromWhy}}) may not import from src/core/{{to}} ({{toWhy}}), a higher layer. Move the shared piece down (often into src/core/model.ts) or the caller up. Layers, lowest first: {{order}}.",
      outside: "src/core may not import '{{specifier}}': core runs in the CLI and the HTML report too, outside VS Code and the webview. View shapes live in src/core/report; src/protocol.ts imports them from there.",
      unknown: "src/core/{{folder}} is not a known layer: add it to CORE_LAYERS in eslint/layers.mjs at its place in the order.",
    },
  },
  create(context) {
    const file = context.physicalFilename ?? context.filename;
    const root = coreRoot(file);
    if (!root) return {};
    const from = layerOf(root, file);
    const fromRank = CORE_LAYERS.indexOf(from);

    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source.value);
      const to = layerOf(root, target);
      if (to === undefined) {
        context.report({ node: source, messageId: 'outside', data: { specifier: source.value } });
        return;
      }
      const toRank = CORE_LAYERS.indexOf(to);
      if (fromRank < 0 || toRank < 0) {
        context.report({ node: source, messageId: 'unknown', data: { folder: fromRank < 0 ? from : to } });
        return;
      }
      if (toRank > fromRank) {
        context.report({
          node: source,
          messageId: 'upward',
          data: { from, to, fromWhy: WHY[from], toWhy: WHY[to], order: CORE_LAYERS.join(' < ') },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : undefined),
    };
  },
};

export default { rules: { direction: rule } };
