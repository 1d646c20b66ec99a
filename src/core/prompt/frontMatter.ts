// The optional YAML front matter of a prompt template: name, description, model, parameters, declared inputs.
import { isMap, LineCounter } from 'yaml';
import type { Node } from 'yaml';
import { InputError } from '../errors.js';
import { boundedYamlValue, parseBoundedYaml } from '../data/boundedYaml.js';

export interface TemplateInput {
  description?: string;
}

export interface TemplateFrontMatter {
  name?: string;
  description?: string;
  /** "provider:model" the template was written for; the eval file's models take precedence. */
  model?: string;
  /** Decoding parameters (temperature, maxTokens…) applied under the eval file's own. */
  parameters: Record<string, unknown>;
  /** Variables the author declared, with descriptions; documentation only, the body decides what is read. */
  inputs: Record<string, TemplateInput>;
}

export interface SplitTemplate {
  frontMatter: TemplateFrontMatter;
  body: string;
  /** 1-based line of the file where the body starts. */
  bodyLine: number;
}

const FENCE = /^---[ \t]*\r?$/;
const HINT = 'front matter is YAML between two "---" lines, e.g. name: …, model: openai:gpt-4o-mini, parameters: {temperature: 0}';

/** Separates the front matter (when the first line is "---") from the body and checks its fields. */
export function splitFrontMatter(file: string, text: string): SplitTemplate {
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { frontMatter: { parameters: {}, inputs: {} }, body: text, bodyLine: 1 };
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close === -1) throw new InputError({ file, line: 1, column: 1 }, 'the front matter is not closed', 'end it with a line holding only "---"');
  const yamlText = lines.slice(1, close).join('\n');
  return {
    frontMatter: parseFrontMatter(file, yamlText),
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
  };
}

/** The YAML starts on line 2 of the file, so every position is shifted down by one line. */
function parseFrontMatter(file: string, yamlText: string): TemplateFrontMatter {
  const lineCounter = new LineCounter();
  const where = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line: line + 1, column: col };
  };
  const doc = parseBoundedYaml(yamlText, lineCounter, where);
  const firstError = doc.errors[0];
  if (firstError) throw new InputError(where(firstError.pos[0]), `invalid front matter YAML: ${firstError.message}`, HINT);
  if (doc.contents === null) return { parameters: {}, inputs: {} };
  if (!isMap(doc.contents)) throw new InputError(where(doc.contents.range?.[0] ?? 0), 'the front matter must be a mapping', HINT);
  const problemAt: ProblemAt = (key, message, hint) => {
    const node = doc.get(key, true) as Node | undefined;
    return new InputError(where(node?.range?.[0] ?? 0), message, hint);
  };
  const data = boundedYamlValue(doc, where) as Record<string, unknown>;
  return {
    name: optionalString(data, 'name', problemAt),
    description: optionalString(data, 'description', problemAt),
    model: optionalString(data, 'model', problemAt),
    parameters: optionalMapping(data, 'parameters', problemAt),
    inputs: inputs(optionalMapping(data, 'inputs', problemAt), problemAt),
  };
}

type ProblemAt = (key: string, message: string, hint: string) => InputError;

function optionalString(data: Record<string, unknown>, key: string, problemAt: ProblemAt): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  const hint = key === 'model' ? 'write model as "provider:model", e.g. openai:gpt-4o-mini' : HINT;
  throw problemAt(key, `front matter '${key}' must be text`, hint);
}

function optionalMapping(data: Record<string, unknown>, key: string, problemAt: ProblemAt): Record<string, unknown> {
  const value = data[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw problemAt(key, `front matter '${key}' must be a mapping`, HINT);
  return value as Record<string, unknown>;
}

/** `inputs` entries may be a description string or a mapping with `description`, as Prompty writes them. */
function inputs(raw: Record<string, unknown>, problemAt: ProblemAt): Record<string, TemplateInput> {
  const result: Record<string, TemplateInput> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === null || value === undefined) result[name] = {};
    else if (typeof value === 'string') result[name] = { description: value };
    else if (typeof value === 'object' && !Array.isArray(value)) {
      const description = (value as { description?: unknown }).description;
      result[name] = typeof description === 'string' ? { description } : {};
    } else throw problemAt('inputs', `front matter input '${name}' must be a description or a mapping`, 'e.g. inputs: { question: "the user question" }');
  }
  return result;
}
