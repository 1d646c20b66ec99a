// package.json's languageModelTools are core's tools: the same names, descriptions and input schemas as the MCP
// server lists, so VS Code's agent and an MCP client are offered one set of tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { languageModelToolContributions } from '../../../src/core/agentTools/toolManifest.js';
import { AGENT_TOOL_NAMES } from '../../../src/core/agentTools/tools.js';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string; inputSchema: { required?: string[] } }[] } };

test('package.json declares exactly the core tools, with the schemas core generates', () => {
  assert.deepEqual(manifest.contributes.languageModelTools, languageModelToolContributions(), 'package.json is stale: run node --import tsx src/core/agentTools/toolManifest.ts');
  assert.deepEqual(manifest.contributes.languageModelTools.map((t) => t.name), AGENT_TOOL_NAMES.map((n) => `ragInspector_${n}`));
  const runEval = manifest.contributes.languageModelTools.find((t) => t.name === 'ragInspector_run_eval');
  assert.deepEqual(runEval?.inputSchema.required, ['evalFile']);
});
