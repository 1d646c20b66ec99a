// The sweep's grid: every combination of the listed values, the shared work (one index per chunking × embeddings, one
// retrieval per query-time setting at its largest k) and the current setting's cell.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellMatches, expandGrid } from '../../../../src/core/corpus/sweep/grid.js';

const embeddings = (model: string) => ({ provider: 'openai-compatible', model, parameters: {} });

describe('sweep grid', () => {
  it('expands every combination, k innermost, and groups cells by the retrieval they share', () => {
    const grid = expandGrid(
      { chunkSize: [128, 256], overlap: [0, 32], embeddings: [embeddings('small'), embeddings('large')], k: [1, 5, 3] },
      { chunkSize: 256, overlap: 0, embeddings: embeddings('small'), k: 5 },
    );
    assert.equal(grid.cells.length, 2 * 2 * 2 * 3);
    assert.deepEqual(grid.cells.slice(0, 3).map((cell) => cell.key), [
      'chunkSize=128 overlap=0 embeddings=openai-compatible:small k=1',
      'chunkSize=128 overlap=0 embeddings=openai-compatible:small k=5',
      'chunkSize=128 overlap=0 embeddings=openai-compatible:small k=3',
    ]);
    // One retrieval per (chunking, embeddings) here, since nothing query-time is swept; each at the largest k.
    assert.equal(grid.settings.length, 8);
    for (const setting of grid.settings) {
      assert.equal(setting.maxK, 5);
      assert.deepEqual(setting.cells.map((cell) => cell.settings.k), [1, 5, 3]);
      assert.equal(setting.embeddings?.model, setting.settings.embeddings?.split(':')[1]);
    }
    assert.equal(new Set(grid.settings.map((s) => s.indexKey)).size, 8);
    assert.equal(grid.current.key, 'chunkSize=256 overlap=0 embeddings=openai-compatible:small k=5');
    assert.equal(grid.cells.filter((cell) => cell.current).length, 1);
    assert.deepEqual(grid.notes, []);
  });

  it('shares one index between the query-time settings searched in it', () => {
    const grid = expandGrid({ chunkSize: [128, 256], hybridWeight: [0, 0.5, 1], rerank: [false, true], k: [10] }, { chunkSize: 128, hybridWeight: 0.5, rerank: false, k: 10 });
    assert.equal(grid.settings.length, 12);
    assert.deepEqual([...new Set(grid.settings.map((s) => s.indexKey))], ['chunkSize=128', 'chunkSize=256']);
    assert.equal(grid.current.key, 'chunkSize=128 hybridWeight=0.5 rerank=false k=10');
  });

  it('leaves out cells whose overlap is not below the chunk size, and says so', () => {
    const grid = expandGrid({ chunkSize: [32, 64], overlap: [0, 32], k: [3] }, { chunkSize: 64, overlap: 0, k: 3 });
    assert.deepEqual(grid.cells.map((cell) => cell.key), ['chunkSize=32 overlap=0 k=3', 'chunkSize=64 overlap=0 k=3', 'chunkSize=64 overlap=32 k=3']);
    assert.match(grid.notes.join('\n'), /1 cell left out where the overlap is not below the chunk size \(chunkSize 32 × overlap 32\)/);
  });

  it('adds the current setting as a cell of its own when the listed values miss it', () => {
    const grid = expandGrid({ chunkSize: [16, 32], k: [1, 5] }, { chunkSize: 64, k: 3 });
    assert.equal(grid.cells.length, 5);
    assert.equal(grid.current.key, 'current (chunkSize=64 k=3)');
    assert.deepEqual(grid.current.settings, { chunkSize: 64, k: 3 });
    assert.equal(grid.settings.length, 3);
    assert.equal(grid.settings.find((s) => s.cells.includes(grid.current))?.maxK, 3);
  });

  it('takes the first listed value where the current setting has none, and says so', () => {
    const grid = expandGrid({ overlap: [8, 0], k: [3] }, { k: 3 });
    assert.equal(grid.current.key, 'overlap=8 k=3');
    assert.match(grid.notes.join('\n'), /no overlap of its own: the first value listed \(8\)/);
  });

  it('finds the cells an end-to-end reference names', () => {
    const grid = expandGrid({ chunkSize: [128, 256], k: [1, 5] }, { chunkSize: 128, k: 5 });
    assert.deepEqual(grid.cells.filter((cell) => cellMatches(cell, { chunkSize: 256 })).map((cell) => cell.key), ['chunkSize=256 k=1', 'chunkSize=256 k=5']);
    assert.deepEqual(grid.cells.filter((cell) => cellMatches(cell, { chunkSize: 256, k: 5 })).map((cell) => cell.key), ['chunkSize=256 k=5']);
  });
});
