// No host switches on a method's name: a string literal equal to a registered method's id outside src/core/suites
// fails here, so what a host needs from a method is asked through a Suite hook or the method's view (CONTRACT.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { knownMethods } from '../../../src/core/suites/registry.js';

const REPO = path.resolve(__dirname, '../../..');
const SCANNED = ['src/extension', 'src/core', 'src/cli', 'src/protocol.ts', 'webview'];
const METHODS_FOLDER = path.join('src', 'core', 'suites');

function sourceFiles(entry: string): string[] {
  const full = path.join(REPO, entry);
  if (entry.endsWith('.ts')) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(full, f))
    .filter((f) => !path.relative(REPO, f).startsWith(METHODS_FOLDER + path.sep))
    // Emitted from the schema, whose method list is the registry's (schema.ts).
    .filter((f) => !f.endsWith('.generated.ts'));
}

/** Property names whose value is a highlight kind or a document role (the inserted "needle" is both), or words shown. */
const KIND_PROPERTIES = new Set(['kind', 'role', 'label']);
/** Types whose members are highlight kinds or document roles. */
const KIND_TYPES = /\b(SpanKind|DocumentRole)\b/;

/**
 * Why a literal equal to a method's id is not a method name, or undefined when nothing says so. The one word shared
 * with other vocabularies is "needle", also a highlight kind and a document role; and a folder of bundled files may
 * be named after a method (path.join's arguments).
 */
function otherMeaning(node: ts.Node): string | undefined {
  // A value chosen by a condition (`label: many ? … : 'needle'`) means what the place it goes to means.
  let value = node;
  while (ts.isConditionalExpression(value.parent) || ts.isParenthesizedExpression(value.parent)) value = value.parent;
  const parent = value.parent;
  if (ts.isPropertyAssignment(parent) && parent.initializer === value && ts.isIdentifier(parent.name) && KIND_PROPERTIES.has(parent.name.text)) return 'a kind, role or label property';
  if (ts.isBinaryExpression(parent)) {
    const other = parent.left === value ? parent.right : parent.left;
    if (ts.isPropertyAccessExpression(other) && KIND_PROPERTIES.has(other.name.text)) return 'compared with a kind or role';
  }
  if (ts.isCallExpression(parent) && parent.expression.getText() === 'path.join') return 'a path segment';
  for (let at: ts.Node | undefined = parent; at; at = at.parent) {
    if ((ts.isVariableDeclaration(at) || ts.isPropertyDeclaration(at) || ts.isParameter(at)) && at.type && KIND_TYPES.test(at.type.getText())) return 'typed as a kind or role';
    if (ts.isTypeAliasDeclaration(at) && KIND_TYPES.test(at.name.text)) return 'a member of the kind or role type';
    if (ts.isStatement(at) || ts.isClassElement(at)) break;
  }
  return undefined;
}

interface Hit {
  where: string;
  text: string;
}

function methodLiterals(file: string, methods: ReadonlySet<string>, code = readFileSync(file, 'utf8')): Hit[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const hits: Hit[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && methods.has(node.text) && !ts.isImportDeclaration(node.parent) && otherMeaning(node) === undefined) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      hits.push({ where: `${path.relative(REPO, file)}:${line + 1}`, text: node.getText(source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

describe('method names outside the methods folder', () => {
  const methods = new Set(knownMethods());

  it('no host, CLI, webview or core module outside src/core/suites writes a method id as a string', () => {
    const hits = SCANNED.flatMap(sourceFiles).flatMap((file) => methodLiterals(file, methods));
    assert.deepEqual(hits.map((h) => `${h.where} ${h.text}`), [], 'ask the method through a Suite hook (contract.ts) or its view (caseView.ts) instead');
  });

  it('fails on a switch over method names, and lets the needle highlight kind through', () => {
    const file = path.join(REPO, 'webview/state/example.ts');
    const code = [
      "export function f(method: string, kind: { kind: string }) {",
      "  if (method === 'ragas') return 1;",
      "  switch (method) { case 'llm-eval': return 2; }",
      "  if (kind.kind === 'needle') return 3;",
      "  const kinds: SpanKind[] = ['needle'];",
      "  return { kind: 'needle', kinds };",
      '}',
    ].join('\n');
    assert.deepEqual(methodLiterals(file, methods, code).map((h) => h.text), ["'ragas'", "'llm-eval'"]);
  });
});
