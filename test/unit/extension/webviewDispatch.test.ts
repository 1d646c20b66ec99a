// The host's handler table for webview messages, without VS Code: what is answered, with what error, and what is logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancelRun, Command, GetCase, GetRun, ListRuns, OpenDatasetRow, Request, SetVerdicts } from '../../../src/protocol.js';
import { num, object, optional, text } from '../../../src/protocolShapes.js';
import type { Envelope, RunDetail, RunListing } from '../../../src/protocol.js';
import { RequestFailure, WebviewDispatcher, onCommand, onRequest } from '../../../src/extension/webviewDispatch.js';
import type { Handler } from '../../../src/extension/webviewDispatch.js';

const LISTING: RunListing = { runId: 'run-1', name: 'smoke', createdAt: '2026-11-25T10:00:00.000Z', status: 'success', models: ['m'] };

function setUp(handlers: Handler[]) {
  const posted: Envelope[] = [];
  const logged: { level: 'debug' | 'warn' | 'error'; text: string }[] = [];
  const shown: string[] = [];
  const dispatcher = new WebviewDispatcher(handlers, {
    post: (message) => posted.push(message),
    logger: {
      debug: (text) => logged.push({ level: 'debug', text }),
      warn: (text) => logged.push({ level: 'warn', text }),
      error: (text) => logged.push({ level: 'error', text: text instanceof Error ? text.message : text }),
    },
    commandFailed: (text) => shown.push(text),
  });
  return { dispatcher, posted, logged, shown, warnings: () => logged.filter((l) => l.level !== 'debug') };
}

test('a request with a handler is answered with its result, by id, and the handler gets the checked params', async () => {
  const seen: unknown[] = [];
  const { dispatcher, posted, warnings } = setUp([
    onRequest(ListRuns, () => [LISTING]),
    onRequest(GetRun, async (params) => {
      seen.push(params);
      return { listing: { ...LISTING, runId: params.runId }, reports: [], thresholds: [], problems: [], cases: [] } satisfies RunDetail;
    }),
  ]);
  await dispatcher.dispatch(ListRuns.create(1, {}));
  // A field the descriptor does not declare never reaches the handler.
  await dispatcher.dispatch({ ...GetRun.create(2, { runId: 'run-7' }), params: { runId: 'run-7', extra: true } });
  assert.deepEqual(posted, [
    ListRuns.respond(1, [LISTING]),
    GetRun.respond(2, { listing: { ...LISTING, runId: 'run-7' }, reports: [], thresholds: [], problems: [], cases: [] }),
  ]);
  assert.deepEqual(seen, [{ runId: 'run-7' }]);
  assert.deepEqual(warnings(), []);
});

test('a request whose handler throws is answered with the error: its own code when it has one, else internal and logged', async () => {
  const { dispatcher, posted, logged } = setUp([
    onRequest(GetRun, ({ runId }) => { throw new RequestFailure('not-found', `no run ${runId}`); }),
    onRequest(GetCase, async () => { throw new TypeError('cannot read the log'); }),
    onRequest(ListRuns, () => { throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }); }),
  ]);
  await dispatcher.dispatch(GetRun.create(3, { runId: 'nope' }));
  await dispatcher.dispatch(GetCase.create(4, { runId: 'run-1', key: 'k' }));
  await dispatcher.dispatch(ListRuns.create(5, {}));
  assert.deepEqual(posted, [
    GetRun.fail(3, { code: 'not-found', message: 'no run nope' }),
    GetCase.fail(4, { code: 'internal', message: 'cannot read the log' }),
    ListRuns.fail(5, { code: 'cancelled', message: 'The operation was aborted' }),
  ]);
  // Only the unexpected failure is an error in the log; the others are the webview's to show.
  assert.deepEqual(logged.filter((l) => l.level === 'error'), [{ level: 'error', text: 'cannot read the log' }]);
});

test('params that do not match the descriptor are answered with bad-request, and the handler is not called', async () => {
  let calls = 0;
  const { dispatcher, posted } = setUp([onRequest(GetCase, () => { calls++; throw new Error('unreachable'); })]);
  await dispatcher.dispatch({ kind: 'request', method: GetCase.method, id: 6, params: { runId: 'run-1' } });
  await dispatcher.dispatch({ kind: 'request', method: GetCase.method, id: 7, params: { runId: '', key: 'k' } });
  await dispatcher.dispatch({ kind: 'request', method: GetCase.method, id: 8 });
  assert.deepEqual(posted, [
    GetCase.fail(6, { code: 'bad-request', message: '"key" must be a non-empty string' }),
    GetCase.fail(7, { code: 'bad-request', message: '"runId" must be a non-empty string' }),
    GetCase.fail(8, { code: 'bad-request', message: '"runId" must be a non-empty string' }),
  ]);
  assert.equal(calls, 0);
});

test('an unknown request is answered with a clear bad-request error and logged', async () => {
  const { dispatcher, posted, warnings } = setUp([onRequest(ListRuns, () => [])]);
  await dispatcher.dispatch({ kind: 'request', method: 'runs/delete', id: 9, params: {} });
  assert.deepEqual(posted, [{ kind: 'response', method: 'runs/delete', id: 9, error: { code: 'bad-request', message: 'unknown request "runs/delete"' } }]);
  assert.deepEqual(warnings(), [{ level: 'warn', text: 'Inspector: answered the unknown request "runs/delete" #9 with an error.' }]);
});

test('messages that cannot be answered are logged, never posted to', async () => {
  const { dispatcher, posted, warnings } = setUp([onRequest(ListRuns, () => [])]);
  await dispatcher.dispatch('hello');
  await dispatcher.dispatch({ kind: 'request', method: ListRuns.method, params: {} });
  await dispatcher.dispatch({ kind: 'response', method: ListRuns.method, id: 1, result: [] });
  await dispatcher.dispatch({ kind: 'command', method: 'runs/delete', params: {} });
  assert.deepEqual(posted, []);
  assert.deepEqual(warnings().map((w) => w.text), [
    'Inspector: ignored a message that is not a protocol envelope.',
    'Inspector: ignored a request "runs/list" without a numeric id: it cannot be answered.',
    'Inspector: ignored a response "runs/list" from the webview.',
    'Inspector: ignored unknown command "runs/delete".',
  ]);
});

test('a command runs its handler with checked params; a failing or malformed one is logged and shown, not answered', async () => {
  const opened: unknown[] = [];
  const { dispatcher, posted, logged, shown } = setUp([
    onCommand(OpenDatasetRow, (params) => { opened.push(params); }),
    onCommand(CancelRun, async ({ runId }) => { throw new Error(`${runId} is not running`); }),
  ]);
  await dispatcher.dispatch(OpenDatasetRow.create({ file: '/ws/data.jsonl', line: 3 }));
  await dispatcher.dispatch({ kind: 'command', method: OpenDatasetRow.method, params: { file: '/ws/data.jsonl', line: '3' } });
  await dispatcher.dispatch(CancelRun.create({ runId: 'run-1' }));
  assert.deepEqual(opened, [{ file: '/ws/data.jsonl', line: 3 }]);
  assert.deepEqual(posted, []);
  assert.deepEqual(shown, ['"line" must be a number', 'run-1 is not running']);
  assert.deepEqual(logged.filter((l) => l.level === 'error').map((l) => l.text), [
    'Inspector: open/datasetRow failed: "line" must be a number',
    'Inspector: run/cancel failed: run-1 is not running',
  ]);
});

test('a table with two handlers for one message is refused when it is built', () => {
  assert.throws(() => setUp([onRequest(ListRuns, () => []), onRequest(ListRuns, () => [LISTING])]), /two handlers for the request "runs\/list"/);
});

test('handlers are typed by their descriptor (checked by tsc: each line below must stay a type error)', () => {
  // @ts-expect-error GetRun answers with a RunDetail, not a listing array.
  onRequest(GetRun, () => [LISTING]);
  // @ts-expect-error GetRun's params have no "key".
  onRequest(GetRun, ({ key }) => { throw new Error(String(key)); });
  // @ts-expect-error OpenDatasetRow's line is a number.
  onCommand(OpenDatasetRow, ({ line }: { line: string }) => { void line; });
});

test('params of any JSON shape: a VerdictChange arrives as an object, and a wrong one is refused naming the nested field', async () => {
  const seen: unknown[] = [];
  const view = { cases: {}, agreement: [] };
  const { dispatcher, posted } = setUp([onRequest(SetVerdicts, ({ runId, change }) => { seen.push({ runId, change }); return view; })]);
  const send = (id: number, change: unknown) => dispatcher.dispatch({ kind: 'request', method: SetVerdicts.method, id, params: { runId: 'run-1', change } });
  await send(1, { keys: ['a\u0000m', 'b\u0000m'], label: 'wrong', note: 'cites the wrong year', extra: 1 });
  await send(2, { keys: ['a\u0000m'], label: null, note: 'a note only' });
  await send(3, { keys: [], label: 'correct' });
  await send(4, { keys: ['a\u0000m', 3], label: 'correct' });
  await send(5, { keys: ['a\u0000m'], label: 'maybe' });
  await send(6, { keys: ['a\u0000m'], label: null });
  await send(7, '{"keys":["a"],"label":"wrong"}');
  assert.deepEqual(seen, [
    { runId: 'run-1', change: { keys: ['a\u0000m', 'b\u0000m'], label: 'wrong', note: 'cites the wrong year' } },
    { runId: 'run-1', change: { keys: ['a\u0000m'], label: null, note: 'a note only' } },
  ]);
  assert.deepEqual(posted.slice(2).map((m) => m.error), [
    { code: 'bad-request', message: '"change.keys" must be a list of at least 1 item' },
    { code: 'bad-request', message: '"change.keys[1]" must be a non-empty string' },
    { code: 'bad-request', message: '"change.label" must be one of "correct", "wrong", null' },
    { code: 'bad-request', message: '"change.note" must be a non-empty string when the label is null' },
    { code: 'bad-request', message: '"change" must be an object' },
  ]);
});

test('a descriptor whose declared params and shape disagree does not compile (checked by tsc)', () => {
  // @ts-expect-error the shape does not check a declared field
  void new Request<{ runId: string; key: string }, string>('test/a', object({ runId: text }));
  // @ts-expect-error the shape checks a field the type does not declare
  void new Request<{ runId: string }, string>('test/b', object({ runId: text, key: text }));
  // @ts-expect-error the field's kinds differ
  void new Command<{ line: number }>('test/c', object({ line: text }));
  void new Command<{ line: number; note?: string }>('test/d', object({ line: num, note: optional(text) }));
});
