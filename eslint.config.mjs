// Lint rules that protect the architecture (ARCHITECTURE.md, "Layers"): core runs outside VS Code, so it never
// imports it, and inside core each folder imports only from the layers below it.
import tseslint from 'typescript-eslint';
import layers from './eslint/layers.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.e2e/**', '.rag-inspector/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true } }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/direction': 'error' },
  },
  {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/core and src/cli run outside VS Code: keep vscode imports in src/extension.' }],
        patterns: [{ group: ['**/extension/**', '**/webview/**'], message: 'core/cli may not depend on the extension or webview layers.' }],
      }],
    },
  },
  {
    // The vendor SDKs load on first use (src/core/vendor/load.ts): a value import anywhere else would put them back
    // into the bundle every run and every activation parses. Types cost nothing at run time. zod/mini is the exception:
    // the methods' params are declared with it (src/core/suites/paramSchema.ts) and read at every load; imported by
    // name it adds ~20 KB to each bundle (README, "Dependency notes"), where classic zod would add ~90 KB.
    files: ['src/**/*.ts'],
    ignores: ['src/core/vendor/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{
          group: ['openai', 'openai/*', '@anthropic-ai/sdk', '@anthropic-ai/sdk/*', '@opentelemetry/*', '@arizeai/openinference-core', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', '@lancedb/lancedb'],
          allowTypeImports: true,
          message: 'Loaded on first use: get it from loadVendor() in src/core/vendor/load.ts (import type is fine).',
        }, {
          regex: '^zod(?!/mini$)(/.*)?$',
          allowTypeImports: true,
          message: 'Loaded on first use: get it from loadVendor() in src/core/vendor/load.ts (import type is fine); params are declared with zod/mini through src/core/suites/paramSchema.ts.',
        }],
      }],
    },
  },
  {
    files: ['src/extension/**/*.ts', 'src/protocol.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/webview/**'], message: 'The extension host talks to the webview only through src/protocol.ts; shared logic belongs in src/core.' }],
      }],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/src/extension/**', '**/src/cli/**', 'vscode', 'node:*'], message: 'The webview runs in a browser and imports only src/protocol.ts (and types from src/core).' }],
      }],
    },
  },
);
