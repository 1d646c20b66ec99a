// Response cache: canonical keys, credential stripping, hits and misses, segments, lines cut short or corrupt, errors refused.
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  const otherKey = cacheKey({ providerId: 'openai', endpoint: 'https://api.openai.com/v1', request: { ...request, temperature: 1 } });
  const segments = (dir: string) => listFiles(path.join(dir, 'segments')).catch(() => [] as string[]);

  it('misses, then hits with cached: true after a set; another cache object on the folder hits too', async () => {
    const dir = path.join(root, 'hit');
    const cache = new ResponseCache(dir);
    assert.equal(await cache.get(key), undefined);
    await cache.set(key, record());
    assert.deepEqual(await cache.get(key), { ...record(), cached: true });
    assert.deepEqual(await new ResponseCache(dir).get(key), { ...record(), cached: true });
  });

  it('appends to one segment per writing object; an object that only reads writes nothing', async () => {
    const dir = path.join(root, 'segments');
    const first = new ResponseCache(dir);
    await first.set(key, record('one'));
    await first.set(otherKey, record('two'));
    assert.equal((await segments(dir)).length, 1);
    const reader = new ResponseCache(dir);
    assert.equal((await reader.get(otherKey))?.text, 'two');
    assert.equal((await segments(dir)).length, 1);
    const second = new ResponseCache(dir);
    await second.set(key, record('three'));
    const files = await segments(dir);
    assert.equal(files.length, 2);
    assert.ok(files.every((file) => /segments\/\d{15}-\d+-\d{6}-[0-9a-f]{8}\.jsonl$/.test(file)), files.join(', '));
    // Each object finds what it wrote itself; a new one sees both segments, the later line for a key winning.
    assert.equal((await first.get(key))?.text, 'one');
    assert.equal((await second.get(key))?.text, 'three');
    assert.equal((await new ResponseCache(dir).get(otherKey))?.text, 'two');
    assert.equal((await new ResponseCache(dir).get(key))?.text, 'three', 'the newer segment wins');
  });

  it('an entry another object appends after this one read the segments is a miss for it, never a wrong answer', async () => {
    const dir = path.join(root, 'later');
    const early = new ResponseCache(dir);
    assert.equal(await early.get(key), undefined);
    await new ResponseCache(dir).set(key, record('late'));
    assert.equal(await early.get(key), undefined);
    assert.equal((await new ResponseCache(dir).get(key))?.text, 'late');
  });

  it('a line cut short by a crash is never read; the entries before it still are', async () => {
    const dir = path.join(root, 'crashed');
    await new ResponseCache(dir).set(otherKey, record('whole'));
    const [segment] = await segments(dir);
    await appendFile(segment!, `{"key":"${key}","format":2,"record":{"text":"half`);
    const cache = new ResponseCache(dir);
    assert.equal(await cache.get(key), undefined);
    assert.equal((await cache.get(otherKey))?.text, 'whole');
  });

  it('a line that does not read back whole and right is a miss: garbage, another key, another format, a bad record', async () => {
    const dir = path.join(root, 'corrupt');
    await mkdir(path.join(dir, 'segments'), { recursive: true });
    const lines = [
      `{"key":"${key}","format":2,"record":{"te`,
      `{"key":"${key}","format":2,"record":{"text":5}}`,
      `{"key":"${key}","format":99,"record":{"text":"x","usage":{"inputTokens":1,"outputTokens":1},"latencyMs":1}}`,
      `{"key":"${key}","format":2,"record":{"text":"x","usage":{"inputTokens":1,"outputTokens":1},"latencyMs":1},"key":"${otherKey}"}`,
      `{"key":"${key.toUpperCase()}","format":2,"record":{"text":"x","usage":{"inputTokens":1,"outputTokens":1},"latencyMs":1}}`,
      'not json at all',
      '',
    ];
    for (const [i, line] of lines.entries()) {
      await writeFile(path.join(dir, 'segments', `${i}.jsonl`), `${line}\n`);
      assert.equal(await new ResponseCache(dir).get(key), undefined, `read ${JSON.stringify(line)} as a hit`);
      await rm(path.join(dir, 'segments', `${i}.jsonl`));
    }
  });

  it('reads a response longer than the index\'s read chunk, among short ones', async () => {
    const dir = path.join(root, 'long');
    const writer = new ResponseCache(dir);
    const long = 'Ω'.repeat(1_500_000); // 3 MB in UTF-8, across several 1 MB chunks
    await writer.set(otherKey, record('before'));
    await writer.set(key, record(long));
    const third = cacheKey({ providerId: 'openai', endpoint: 'https://api.openai.com/v1', request: { ...request, temperature: 2 } });
    await writer.set(third, record('after'));
    const reader = new ResponseCache(dir);
    assert.equal((await reader.get(key))?.text, long);
    assert.equal((await reader.get(otherKey))?.text, 'before');
    assert.equal((await reader.get(third))?.text, 'after');
  });

  it('concurrent sets and gets of one key: every read is whole, the last set wins', async () => {
    const dir = path.join(root, 'race');
    const cache = new ResponseCache(dir);
    const big = (i: number): ResponseRecord => record(`${i}`.repeat(200_000));
    const reads: Promise<ResponseRecord | undefined>[] = [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      writes.push(cache.set(key, big(i)));
      reads.push(cache.get(key), new ResponseCache(dir).get(key));
    }
    await Promise.all(writes);
    for (const got of await Promise.all(reads)) {
      if (got !== undefined) assert.match(got.text, /^(\d)\1{199999}$/);
    }
    assert.equal((await cache.get(key))?.text, big(7).text);
    assert.equal((await new ResponseCache(dir).get(key))?.text, big(7).text);
  });

  it('a write that fails leaves its segment: the error reaches the caller, the next entry goes to a new segment', async () => {
    const dir = path.join(root, 'failed-write');
    const cache = new ResponseCache(dir);
    await cache.set(otherKey, record('first'));
    const [segment] = await segments(dir);
    // Something takes the segment's place (as a full disk would cut a line short): the append fails.
    await rm(segment!);
    await mkdir(segment!);
    await assert.rejects(cache.set(key, record('lost')));
    await cache.set(key, record('kept'));
    assert.equal((await cache.get(key))?.text, 'kept');
    assert.equal((await new ResponseCache(dir).get(key))?.text, 'kept');
    assert.equal(await new ResponseCache(dir).get(otherKey), undefined, 'its segment is gone');
  });

  it('refuses to store anything that is not a successful response, or under a key that is not one', async () => {
    const cache = new ResponseCache(path.join(root, 'errors'));
    const failure = new ProviderError('server', '503', { status: 503, usage: { inputTokens: 1, outputTokens: 0 } });
    await assert.rejects(cache.set(key, failure as unknown as ResponseRecord), TypeError);
    await assert.rejects(cache.set(key, { text: 'x' } as unknown as ResponseRecord), TypeError);
    await assert.rejects(cache.set('../../etc/passwd', record()), TypeError);
    await assert.rejects(cache.get('../../etc/passwd'), TypeError);
    assert.equal(await cache.get(key), undefined);
    assert.deepEqual(await segments(path.join(root, 'errors')), []);
  });

  it('stores no secret from the endpoint', async () => {
    const cache = new ResponseCache(path.join(root, 'secret'));
    const secretKey = cacheKey({ providerId: 'openai', endpoint: 'https://user:hunter2hunter2@api.example/v1', request });
    await cache.set(secretKey, record());
    const files = await listFiles(path.join(root, 'secret'));
    assert.ok(files.length > 0);
    for (const file of files) {
      assert.doesNotMatch(await readFile(file, 'utf8'), /hunter2/);
    }
  });
});
