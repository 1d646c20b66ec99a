// package.json's `contributes.languageModelTools`, generated from core's tools so VS Code's schemas cannot drift from
// the ones the MCP server lists: `node --import tsx src/core/agentTools/toolManifest.ts` rewrites them, and
// test/unit/agentTools/toolManifest.test.ts fails while package.json differs.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadVendor } from '../vendor/load.js';
import { AGENT_TOOLS, inputSchemaOf } from './tools.js';
import type { AgentTool } from './tools.js';

/** The icon each tool shows in VS Code's tool picker (a codicon). */
const ICONS: Record<string, string> = {
  run_eval: '$(play)',
  list_failures: '$(list-filter)',
  show_case: '$(eye)',
  explain_case: '$(lightbulb)',
  compare_runs: '$(diff)',
};

/** The tool's input as JSON Schema (what VS Code checks a call against), from its zod schema. */
export function jsonSchemaOf(tool: AgentTool): Record<string, unknown> {
  const { $schema: _, ...schema } = loadVendor('mcp').z.toJSONSchema(inputSchemaOf(tool), { io: 'input' }) as Record<string, unknown>;
  return schema;
}

export function languageModelToolContributions(): Record<string, unknown>[] {
  return AGENT_TOOLS.map((tool) => ({
    name: `ragInspector_${tool.name}`,
    toolReferenceName: `rag_${tool.name}`,
    displayName: `RAG Inspector: ${tool.title}`,
    modelDescription: tool.description,
    userDescription: tool.title,
    canBeReferencedInPrompt: true,
    icon: ICONS[tool.name] ?? '$(tools)',
    tags: ['rag-inspector'],
    inputSchema: jsonSchemaOf(tool),
  }));
}

if (require.main === module) {
  const file = path.resolve(__dirname, '../../../package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
  manifest.contributes.languageModelTools = languageModelToolContributions();
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
