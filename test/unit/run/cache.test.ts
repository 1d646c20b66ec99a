// Response cache: canonical keys, credential stripping, hits and misses, corrupt entries, atomic writes, errors refused.
import assert from 'node:assert/strict';
import { link, mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ResponseRecord } from '../../../src/core/model.js';
import { ProviderError } from '../../../src/core/providers/contract.js';
import type { CompletionRequest } from '../../../src/core/providers/contract.js';
import { cacheKey, canonicalJson, endpointIdentity, ResponseCache } from '../../../src/core/run/cache.js';

const request: CompletionRequest = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'system', content: 'Answer from the documents.' }, { role: 'user', content: 'Who won?' }],
  temperature: 0,
  maxTokens: 64,
  extra: { logprobs: false, top: { b: 1, a: 2 } },
};

function record(text = 'Paris'): ResponseRecord {
  return { text, usage: { inputTokens: 12, outputTokens: 3 }, latencyMs: 420, cached: false, finishReason: 'stop' };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rag-cache-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('cacheKey', () => {
  const base = { providerId: 'openai', endpoint: 'https://api.openai.com/v1' };

  it('is a sha256 hex that ignores key order at every level', () => {
    const reordered: CompletionRequest = {
      extra: { top: { a: 2, b: 1 }, logprobs: false },
      maxTokens: 64,
      temperature: 0,
      messages: [{ content: 'Answer from the documents.', role: 'system' }, { content: 'Who won?', role: 'user' }],
      model: 'gpt-4o-mini',
    };
    const key = cacheKey({ ...base, request });
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.equal(cacheKey({ ...base, request: reordered }), key);
  });

  it('changes with anything that changes the response, and not with unset fields', () => {
    const key = cacheKey({ ...base, request });
    assert.notEqual(cacheKey({ ...base, request: { ...request, temperature: 0.7 } }), key);
    assert.notEqual(cacheKey({ ...base, request: { ...request, messages: [...request.messages].reverse() } }), key);
    assert.notEqual(cacheKey({ ...base, providerId: 'anthropic', request }), key);
    assert.notEqual(cacheKey({ ...base, endpoint: 'http://localhost:11434/v1', request }), key);
    assert.equal(cacheKey({ ...base, request: { ...request, seed: undefined } }), key);
  });

  it('strips credentials from the endpoint before hashing', () => {
    const key = cacheKey({ ...base, request });
    assert.equal(cacheKey({ ...base, endpoint: 'https://user:s3cret@api.openai.com/v1', request }), key);
    assert.equal(endpointIdentity('https://user:s3cret@host.example/v1?api-key=abc&deployment=x'), 'https://host.example/v1?deployment=x');
    assert.equal(endpointIdentity('https://host.example/v1?key=abc'), 'https://host.example/v1');
    assert.equal(endpointIdentity('extractive'), 'extractive');
  });

  it('writes canonical JSON like JSON.stringify apart from the order', () => {
    assert.equal(canonicalJson({ b: [1, undefined, Number.NaN], a: 'x', c: undefined }), '{"a":"x","b":[1,null,null]}');
  });
});

describe('ResponseCache', () => {
  const key = cacheKey({ providerId: 'openai', endpoint: 'https://api.openai.com/v1', request });

  it('misses, then hits with cached: true after a set', async () => {
    const cache = new ResponseCache(path.join(root, 'hit'));
    assert.equal(await cache.get(key), undefined);
    await cache.set(key, record());
    assert.deepEqual(await cache.get(key), { ...record(), cached: true });
    assert.equal(cache.pathOf(key), path.join(root, 'hit', key.slice(0, 2), `${key}.json`));
  });

  it('treats a corrupt entry as a miss and removes it', async () => {
    const cache = new ResponseCache(path.join(root, 'corrupt'));
    const file = cache.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    for (const garbage of ['{"format":1,"record":{"te', '', '{"format":1,"record":{"text":5}}', '{"format":99,"record":{}}']) {
      await writeFile(file, garbage);
      assert.equal(await cache.get(key), undefined, `read ${JSON.stringify(garbage)} as a hit`);
      assert.deepEqual(await listFiles(path.join(root, 'corrupt')), [], 'corrupt entry was left in place');
    }
  });

  it('treats an unreadable entry (a directory in its place) as a miss', async () => {
    const cache = new ResponseCache(path.join(root, 'unreadable'));
    await mkdir(cache.pathOf(key), { recursive: true });
    assert.equal(await cache.get(key), undefined);
  });

  it('never exposes half an entry to readers racing the writers, and leaves no temporary files', async () => {
    const cache = new ResponseCache(path.join(root, 'race'));
    const big = (i: number): ResponseRecord => record(`${i}`.repeat(200_000));
    const reads: Promise<ResponseRecord | undefined>[] = [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      writes.push(cache.set(key, big(i)));
      reads.push(cache.get(key));
    }
    await Promise.all(writes);
    for (let i = 0; i < 8; i++) reads.push(cache.get(key));
    for (const got of await Promise.all(reads)) {
      if (got !== undefined) assert.match(got.text, /^(\d)\1{199999}$/);
    }
    assert.deepEqual(await listFiles(path.join(root, 'race')), [cache.pathOf(key)]);
    assert.ok(await cache.get(key), 'a reader deleted a good entry it mistook for a corrupt one');
  });

  it('replaces an entry by rename, never by writing into the file in place', async () => {
    // A hard link keeps the old inode: an in-place write would change what it reads, a rename does not.
    const cache = new ResponseCache(path.join(root, 'rename'));
    await cache.set(key, record('old'));
    const probe = path.join(root, 'rename-probe.json');
    await link(cache.pathOf(key), probe);
    await cache.set(key, record('new'));
    assert.match(await readFile(probe, 'utf8'), /"old"/);
    assert.equal((await cache.get(key))?.text, 'new');
  });

  it('ignores a temporary file left by a crashed writer', async () => {
    const cache = new ResponseCache(path.join(root, 'crashed'));
    const file = cache.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.999.abcdef.tmp`, '{"format":1,"record":{"text":"half');
    assert.equal(await cache.get(key), undefined);
  });

  it('refuses to store anything that is not a successful response', async () => {
    const cache = new ResponseCache(path.join(root, 'errors'));
    const failure = new ProviderError('server', '503', { status: 503, usage: { inputTokens: 1, outputTokens: 0 } });
    await assert.rejects(cache.set(key, failure as unknown as ResponseRecord), TypeError);
    await assert.rejects(cache.set(key, { text: 'x' } as unknown as ResponseRecord), TypeError);
    await assert.rejects(cache.set('../../etc/passwd', record()), TypeError);
    assert.equal(await cache.get(key), undefined);
  });

  it('stores no secret from the endpoint', async () => {
    const cache = new ResponseCache(path.join(root, 'secret'));
    const secretKey = cacheKey({ providerId: 'openai', endpoint: 'https://user:hunter2hunter2@api.example/v1', request });
    await cache.set(secretKey, record());
    for (const file of await listFiles(path.join(root, 'secret'))) {
      assert.doesNotMatch(await readFile(file, 'utf8'), /hunter2/);
    }
  });
});
