// Prompt templates: load (front matter, role sections, LiquidJS parse), list the variables they read, render to chat messages.
import * as path from 'node:path';
import type { Liquid, Template } from 'liquidjs';
import { LiquidError, toValueSync, UndefinedVariableError } from 'liquidjs';
import { InputError } from '../errors.js';
import type { SourcePosition } from '../errors.js';
import type { ChatMessage, RowRef } from '../model.js';
import { decodeUtf8 } from '../data/lines.js';
import { FileProblem, problemOfError, readRegularFile } from '../regularFile.js';
import { splitFrontMatter } from './frontMatter.js';
import type { TemplateFrontMatter } from './frontMatter.js';
import { createEngine, includeHint, MAX_TEMPLATE_BYTES, renderLimitHint, toInputError } from './liquidEngine.js';
import { splitSections } from './sections.js';
import type { SectionSource } from './sections.js';

export interface TemplateSection extends SectionSource {
  /** The section parsed once by LiquidJS; rendered for every case. */
  readonly templates: Template[];
}

export interface PromptTemplate {
  /** Absolute path. */
  readonly file: string;
  readonly frontMatter: TemplateFrontMatter;
  readonly sections: readonly TemplateSection[];
  /** Top-level variables the template reads, in order of first use. */
  readonly variables: readonly string[];
  /** Where each variable is first read (in the template or a file it includes). */
  readonly variableUses: Readonly<Record<string, SourcePosition>>;
  readonly engine: Liquid;
}

/** Reads and parses a template file; throws InputError at the file:line:col of a front-matter or Liquid syntax error. */
export async function loadTemplate(file: string): Promise<PromptTemplate> {
  const absolute = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(absolute, MAX_TEMPLATE_BYTES);
  } catch (error) {
    const problem = problemOfError(absolute, error);
    if (problem.kind === 'missing') throw new InputError({ file: absolute }, 'template file not found', 'check the path (in an eval file it is relative to the eval file\'s folder)');
    throw new InputError({ file: absolute }, `the template ${problem.says}`, 'point template at a prompt file (in an eval file it is relative to the eval file\'s folder)');
  }
  return parseTemplate(absolute, decodeUtf8(absolute, bytes));
}

/** Parses template text as if it were the file `file` (includes resolve from its folder); for unsaved editors too. */
export function parseTemplate(file: string, text: string): PromptTemplate {
  // One line-ending convention, so a template saved on Windows sends the same prompt.
  const normalized = text.replaceAll('\r\n', '\n');
  const { frontMatter, body, bodyLine } = splitFrontMatter(file, normalized);
  const engine = createEngine(path.dirname(file));
  const sections = splitSections(file, body, bodyLine).map((section, index, all) => parseSection(engine, file, section, all[index + 1]));
  const variableUses = collectVariables(engine, file, sections);
  checkIncludeLoops(file, sections);
  return { file, frontMatter, sections, variables: Object.keys(variableUses), variableUses, engine };
}

export function templateVariables(template: PromptTemplate): string[] {
  return [...template.variables];
}

/**
 * Throws the InputError for a case whose variables lack something the template reads, so it is found
 * before any model call. Positioned at the dataset row; the message names the template line reading it.
 */
export function checkVariables(template: PromptTemplate, variables: Record<string, unknown>, where: RowRef): void {
  const problem = missingVariables(template, variables, where);
  if (problem) throw problem;
}

/** The error checkVariables would throw, or undefined when every variable the template reads is there. */
export function missingVariables(template: PromptTemplate, variables: Record<string, unknown>, where: RowRef): InputError | undefined {
  const missing = template.variables.filter((name) => !Object.hasOwn(variables, name) || variables[name] === undefined);
  if (missing.length === 0) return undefined;
  const uses = missing.map((name) => `'${name}' (read at ${formatUse(template.variableUses[name])})`);
  const available = Object.keys(variables).filter((name) => variables[name] !== undefined);
  return new InputError(
    { file: where.file, line: where.line },
    `row ${where.index + 1} does not provide template variable${missing.length > 1 ? 's' : ''} ${uses.join(', ')}`,
    `this row has: ${available.length > 0 ? available.join(', ') : '(nothing)'} — rename the variable in the template or add the field to the dataset`,
  );
}

/** Renders every section; sections that render to whitespace are dropped (e.g. a system message with no documents). */
export async function renderTemplate(template: PromptTemplate, variables: Record<string, unknown>): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [];
  for (const section of template.sections) {
    let output: unknown;
    try {
      output = await template.engine.render(section.templates, variables);
    } catch (error) {
      throw renderError(template, section, variables, error);
    }
    pushMessage(messages, section, output);
  }
  return messages;
}

/** Same as renderTemplate without promises, for the engine's case-building loop over thousands of rows. */
export function renderTemplateSync(template: PromptTemplate, variables: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const section of template.sections) {
    let output: unknown;
    try {
      output = template.engine.renderSync(section.templates, variables);
    } catch (error) {
      throw renderError(template, section, variables, error);
    }
    pushMessage(messages, section, output);
  }
  return messages;
}

function parseSection(engine: Liquid, file: string, section: SectionSource, next: SectionSource | undefined): TemplateSection {
  try {
    return { ...section, templates: engine.parse(section.source, file) };
  } catch (error) {
    // Sections are split before parsing, so a role line inside a {% for %} or {% if %} cuts the block in two.
    const unclosed = next !== undefined && error instanceof LiquidError && /^tag .* not closed/.test(error.message);
    const hint = unclosed
      ? `the role line "${next.role}:" on line ${next.line - 1} starts a new message, so a tag opened above it must close above it: close the tag before that line, or move the role line out of the block`
      : 'check the {{ … }} and {% … %} tags on this line (LiquidJS syntax)';
    throw toInputError(error, { file, line: section.line }, hint);
  }
}

/**
 * First use of every global variable, by LiquidJS static analysis. Sections render apart, so each is
 * analysed alone (an assign in one section does not define a variable for the next). Included files are
 * analysed too, which is also where a missing or out-of-folder include is caught at load time.
 */
function collectVariables(engine: Liquid, file: string, sections: readonly TemplateSection[]): Record<string, SourcePosition> {
  const uses: Record<string, SourcePosition> = {};
  for (const section of sections) {
    let globals;
    try {
      globals = engine.analyzeSync(section.templates, { partials: true }).globals;
    } catch (error) {
      throw includeError(file, section, error);
    }
    for (const [name, found] of Object.entries(globals)) {
      const location = found[0]?.location;
      if (uses[name] || !location) continue;
      const inSection = location.file === undefined || location.file === file;
      uses[name] = inSection
        ? { file, line: location.row + section.line - 1, column: location.col }
        : { file: location.file!, line: location.row, column: location.col };
    }
  }
  return uses;
}

/**
 * A template that includes itself, directly or through other files, renders until the render limit for every case
 * (10 s each) and then fails with "render limit exceeded"; found here instead, once, with the loop spelled out.
 * Depth-first over literally named partials (a name held in a variable is known only when rendering); runs after
 * collectVariables, which has already reported any partial that cannot be read.
 */
function checkIncludeLoops(file: string, sections: readonly TemplateSection[]): void {
  const finished = new Set<string>();
  const visit = (templates: readonly Template[], chain: string[], section: TemplateSection): void => {
    for (const template of templates) {
      if (!template.children) continue;
      const children = toValueSync(template.children(true, true)) as Template[];
      const target = template.partialScope?.() ? children.find((child) => child.token.file)?.token.file : undefined;
      if (target === undefined) {
        visit(children, chain, section);
        continue;
      }
      if (chain.includes(target)) throw includeLoopError(file, section, template, [...chain, target]);
      if (finished.has(target)) continue;
      visit(children, [...chain, target], section);
      finished.add(target);
    }
  };
  for (const section of sections) visit(section.templates, [file], section);
}

function includeLoopError(file: string, section: TemplateSection, tag: Template, chain: string[]): InputError {
  const [line = 1, column] = tag.token.getPosition();
  const tagFile = tag.token.file;
  const position = tagFile === undefined || tagFile === file ? { file, line: line + section.line - 1, column } : { file: tagFile, line, column };
  const names = chain.map((member) => path.relative(path.dirname(file), member));
  return new InputError(position, `'${names.at(-1)}' includes itself: ${names.join(' → ')}`, 'a template cannot include itself, directly or through other files: remove the include that closes the loop');
}

/** Static analysis throws a bare Error for an include it cannot read; find the tag that names it. */
function includeError(file: string, section: TemplateSection, error: unknown): InputError {
  const problem = fileProblemIn(error);
  const message = error instanceof Error ? error.message : String(error);
  const name = problem ? includeName(file, section, problem.file) : /Failed to lookup "(.*?)"/.exec(message)?.[1];
  if (name === undefined) return toInputError(error, { file, line: section.line });
  const tag = new RegExp(`\\{%-?\\s*(?:include|render|layout)\\s+['"]?${escapeRegExp(name)}`).exec(section.source);
  const position = tag ? offsetPosition(file, section, tag.index) : { file, line: section.line };
  if (problem) {
    const hint = problem.kind === 'too-large' ? 'keep included files to prompt text' : 'include, render and layout read regular files only: name a file, not a named pipe, device or folder';
    return new InputError(position, `cannot read '${name}': it ${problem.says}`, hint);
  }
  return new InputError(position, `cannot read '${name}': it is not a file inside the template's folder`, includeHint(file));
}

/** A partial that exists but is no file to read (a named pipe, a device, too large), however LiquidJS wrapped it. */
function fileProblemIn(error: unknown): FileProblem | undefined {
  for (let cause = error; cause instanceof Error; cause = (cause as { originalError?: unknown }).originalError ?? cause.cause) {
    if (cause instanceof FileProblem) return cause;
  }
  return undefined;
}

/** The partial's name as the tag writes it (relative to the template's folder, extension as written when it is there). */
function includeName(file: string, section: TemplateSection, partial: string): string {
  const relative = path.relative(path.dirname(file), partial).split(path.sep).join('/');
  const withoutExtension = relative.replace(/\.[^./]+$/, '');
  return section.source.includes(relative) || !section.source.includes(withoutExtension) ? relative : withoutExtension;
}

function renderError(template: PromptTemplate, section: TemplateSection, variables: Record<string, unknown>, error: unknown): InputError {
  const hint = error instanceof UndefinedVariableError
    ? `the case provides: ${Object.keys(variables).join(', ') || '(nothing)'}`
    : renderLimitHint(error);
  return toInputError(error, { file: template.file, line: section.line }, hint);
}

/** Drops leading blank lines and trailing whitespace; a section left empty gives no message. */
function pushMessage(messages: ChatMessage[], section: TemplateSection, output: unknown): void {
  const content = String(output).replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  if (content !== '') messages.push({ role: section.role, content });
}

function offsetPosition(file: string, section: TemplateSection, offset: number): SourcePosition {
  const before = section.source.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  const linesBefore = before.length - before.replaceAll('\n', '').length;
  return { file, line: section.line + linesBefore, column: offset - lineStart + 1 };
}

function formatUse(use: SourcePosition | undefined): string {
  if (!use) return 'the template';
  return `${use.file}:${use.line}${use.column === undefined ? '' : `:${use.column}`}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
