// Each text once: a case encoded for the run log reads back exactly as it was sent, texts are written once, a laid-out
// document is stored as ranges of its shared text, nothing a key could hide in is cut into pieces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase } from '../../../src/core/model.js';
import { CaseTextEncoder, decodeCase, textIdsOf } from '../../../src/core/run/caseText.js';
import type { TextLine } from '../../../src/core/run/caseText.js';
import { setLayout } from '../../../src/core/textLayout.js';

const SYSTEM = 'You are an accurate and reliable AI assistant that can answer questions with the help of external documents.';

function rgbCase(id: string, passages: string[]): EvalCase {
  const documents = passages.map((text, i) => ({ id: `d${i}`, role: 'positive' as const, text, spans: [] }));
  return {
    id, suiteId: 'rgb', method: 'rgb', row: { file: '/w/en.json', line: 1, index: 0 }, question: 'Where?',
    documents, expected: ['Paris'], params: {},
    variables: { question: 'Where?', documents: documents.map((d) => ({ id: d.id, text: d.text, role: d.role })) },
    messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: `Document:\n${passages.join('\n')} \n\nQuestion:\nWhere?` }],
  };
}

/** Encodes like the writer (texts then case, through JSON) and decodes like a reader of the log. */
function roundTrip(encoder: CaseTextEncoder, evalCase: EvalCase, store: Map<string, string>): { decoded: EvalCase; texts: TextLine[]; bytes: number; line: string } {
  const { stored, texts } = encoder.encode(evalCase);
  encoder.markWritten(texts);
  for (const text of texts) store.set(text.id, (JSON.parse(JSON.stringify(text)) as TextLine).text);
  const line = JSON.stringify(stored);
  const read = JSON.parse(line) as typeof stored;
  for (const id of textIdsOf(read)) assert.ok(store.has(id), `text ${id} was written before the case`);
  return { decoded: decodeCase(read, store), texts, bytes: line.length, line };
}

describe('case texts in the run log', () => {
  it('an RGB case reads back exactly; the system prompt is written once and the passages are not repeated in the prompt', () => {
    const encoder = new CaseTextEncoder();
    const store = new Map<string, string>();
    const first = rgbCase('a', ['Paris is the capital of France and its largest city by far.', 'Lyon is a city in France.']);
    const a = roundTrip(encoder, first, store);
    assert.deepEqual(a.decoded, first);
    assert.deepEqual(a.texts.map((t) => t.text), [SYSTEM]);
    const second = rgbCase('b', ['Berlin is the capital of Germany and also its largest city.', 'Lyon is a city in France.']);
    const b = roundTrip(encoder, second, store);
    assert.deepEqual(b.decoded, second);
    assert.deepEqual(b.texts, [], 'the system prompt is already in the log');
    for (const passage of second.documents.map((d) => d.text)) assert.equal(b.line.split(passage).length - 1, 1, `${passage} once in the case line`);
    assert.ok(!b.line.includes(SYSTEM));
  });

  it('a document given as ranges of a shared text is stored as those ranges; the trimmed prompt refers to it', () => {
    const haystack = 'Bread rises twice. '.repeat(400);
    const needle = '\nThe best thing to do in San Francisco is eat a sandwich.\n';
    const context = haystack.slice(0, 3800) + needle + haystack.slice(3800, 6000);
    const document = { id: 'haystack', role: 'haystack' as const, text: context, spans: [] };
    setLayout(document, { base: haystack, pieces: [{ start: 0, end: 3800 }, needle, { start: 3800, end: 6000 }] });
    const evalCase: EvalCase = {
      id: 'n', suiteId: 'needle', method: 'needle', row: { file: '/w/x.yaml', line: 1, index: 0 }, question: 'What?', documents: [document],
      expected: {}, params: {}, variables: { context, question: 'What?' },
      messages: [{ role: 'system', content: 'Be short.' }, { role: 'user', content: context.trim() }, { role: 'user', content: 'What?' }],
    };
    const store = new Map<string, string>();
    const { decoded, texts, bytes } = roundTrip(new CaseTextEncoder(), evalCase, store);
    assert.deepEqual(decoded, evalCase);
    assert.deepEqual(texts.map((t) => t.text), [haystack], 'the haystack, whole, once');
    assert.ok(bytes < 1000, `${bytes} bytes for a 6,000-character context quoted twice`);
  });

  it('a layout that no longer rebuilds its document is not trusted', () => {
    const document = { id: 'd', role: 'haystack' as const, text: 'x'.repeat(100), spans: [] };
    setLayout(document, { base: 'y'.repeat(200), pieces: [{ start: 0, end: 100 }] });
    const evalCase: EvalCase = { id: 'n', suiteId: 's', method: 'needle', row: { file: 'f', line: 1, index: 0 }, question: 'q', documents: [document], expected: {}, params: {}, variables: {}, messages: [] };
    const store = new Map<string, string>();
    const { decoded, texts } = roundTrip(new CaseTextEncoder(), evalCase, store);
    assert.deepEqual(decoded, evalCase);
    assert.deepEqual(texts.map((t) => t.text), ['x'.repeat(100)]);
  });

  it('dataset values shaped like references read back as themselves', () => {
    const evalCase = rgbCase('a', ['Paris is the capital of France and its largest city by far.']);
    evalCase.variables = { ...evalCase.variables, tricky: { $t: 'abc', $d: 0 }, nested: [{ $o: { $p: ['x'] } }], plain: 'Paris is the capital of France and its largest city by far.' };
    const { decoded } = roundTrip(new CaseTextEncoder(), evalCase, new Map());
    assert.deepEqual(decoded, evalCase);
  });

  it('a prompt that may hold a key is stored whole, so redaction sees it whole', () => {
    const key = `sk-${'A'.repeat(30)}`;
    const evalCase = rgbCase('a', [`The key ${key} is in this passage, which is long enough.`]);
    const { stored } = new CaseTextEncoder().encode(evalCase);
    assert.ok(typeof stored.messages[1]!.content === 'object' && '$t' in stored.messages[1]!.content, 'one stored text, not pieces');
  });

  it('a text is addressed as stored, redacted: two prompts that differ only by a key are one text', () => {
    const encoder = new CaseTextEncoder();
    const withKey = (key: string) => ({ ...rgbCase('a', ['short']), messages: [{ role: 'system' as const, content: `Use the key ${key} when the documents below are not enough to answer.` }] });
    const first = encoder.encode(withKey(`sk-${'A'.repeat(30)}`));
    encoder.markWritten(first.texts);
    const second = encoder.encode(withKey(`sk-${'B'.repeat(30)}`));
    assert.equal(first.texts.length, 1);
    assert.deepEqual(second.texts, [], 'the same text once redacted');
    assert.deepEqual(second.stored.messages[0]!.content, first.stored.messages[0]!.content);
  });

  it('a forgotten text is written again rather than referenced unwritten', () => {
    const encoder = new CaseTextEncoder(1);
    const store = new Map<string, string>();
    const long = (n: number) => `${n} `.repeat(40);
    roundTrip(encoder, rgbCase('a', [long(1)]), store);
    roundTrip(encoder, rgbCase('b', [long(2)]), store);
    const again = roundTrip(encoder, rgbCase('c', [long(1)]), store);
    assert.ok(again.texts.length > 0);
  });
});
