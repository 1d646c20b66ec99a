// The version written into run logs is the package's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TOOL_VERSION } from '../../src/core/version.js';

test('TOOL_VERSION equals package.json version', () => {
  assert.equal(TOOL_VERSION, JSON.parse(readFileSync('package.json', 'utf8')).version);
});
