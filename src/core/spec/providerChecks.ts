// Provider names checked at load, so a misspelt one is reported at its line with the names that exist, before any model is built.
import { InputError } from '../errors.js';
import { EMBEDDING_PROVIDER_NAMES, HOST_PROVIDER_NAMES, PROVIDER_NAMES } from '../providers/names.js';
import { asRecord } from './checks.js';
import { closest } from '../suggest.js';
import type { YamlLocator } from './yamlPositions.js';
import type { PathSegment } from '../errors.js';

type Raw = Record<string, unknown>;

interface ModelEntry {
  segments: PathSegment[];
  provider: string;
  model: string;
  /** Where the provider name is written: the start of "provider:model", or the mapping's provider value. */
  at: PathSegment[];
}

/** The models under test, the judge and the embeddings model; entries the schema rejects are left to its errors. */
export function modelEntries(data: Raw): Array<ModelEntry & { embeddings: boolean }> {
  const refs: Array<{ segments: PathSegment[]; value: unknown; embeddings: boolean }> = [
    ...(Array.isArray(data.models) ? data.models : []).map((value: unknown, index) => ({ segments: ['models', index], value, embeddings: false })),
    { segments: ['judge'], value: data.judge, embeddings: false },
    { segments: ['embeddings'], value: data.embeddings, embeddings: true },
    { segments: ['index', 'embeddings'], value: asRecord(data.index)?.embeddings, embeddings: true },
  ];
  return refs.flatMap(({ segments, value, embeddings }) => {
    const entry = modelEntry(segments, value);
    return entry ? [{ ...entry, embeddings }] : [];
  });
}

function modelEntry(segments: PathSegment[], value: unknown): ModelEntry | undefined {
  if (typeof value === 'string') {
    const colon = value.indexOf(':');
    return colon > 0 ? { segments, provider: value.slice(0, colon), model: value.slice(colon + 1), at: segments } : undefined;
  }
  const record = asRecord(value);
  if (typeof record?.provider !== 'string' || record.provider === '') return undefined;
  return { segments, provider: record.provider, model: typeof record.model === 'string' ? record.model : '', at: [...segments, 'provider'] };
}

/** `hostProviders`: the host providers this process has (every one when unset); see LoadOptions. */
export function providerProblems(data: Raw, locator: YamlLocator, hostProviders: readonly string[] = HOST_PROVIDER_NAMES): InputError[] {
  const problems: InputError[] = [];
  for (const entry of modelEntries(data)) {
    const allowed: readonly string[] = entry.embeddings ? EMBEDDING_PROVIDER_NAMES : [...PROVIDER_NAMES, ...HOST_PROVIDER_NAMES];
    const absentHost = (HOST_PROVIDER_NAMES as readonly string[]).includes(entry.provider) && !hostProviders.includes(entry.provider);
    if (allowed.includes(entry.provider) && !absentHost) continue;
    const at = locator.valueAt(entry.at);
    if (absentHost && !entry.embeddings) {
      problems.push(new InputError(at, `provider "${entry.provider}"${forModel(entry)} runs only in the RAG Inspector extension (it uses VS Code's chat models)`, `run this eval file from VS Code, or name a model of ${PROVIDER_NAMES.join(', ')} to run it here`));
      continue;
    }
    if (entry.embeddings && (PROVIDER_NAMES as readonly string[]).includes(entry.provider)) {
      problems.push(new InputError(at, `provider "${entry.provider}" cannot make embeddings${forModel(entry)}`, `use one of: ${EMBEDDING_PROVIDER_NAMES.join(', ')}`));
      continue;
    }
    const suggestion = closest(entry.provider, allowed);
    const names = entry.embeddings ? EMBEDDING_PROVIDER_NAMES.join(', ') : `${PROVIDER_NAMES.join(', ')}, or ${HOST_PROVIDER_NAMES.join(', ')} in VS Code`;
    problems.push(new InputError(at, `unknown provider "${entry.provider}"${forModel(entry)}`, `${suggestion ? `did you mean '${suggestion}'? ` : ''}use one of: ${names}`));
  }
  return problems;
}

/** ' for model "x"', or nothing when the model is missing (the schema reports that). */
function forModel(entry: ModelEntry): string {
  return entry.model === '' ? '' : ` for model "${entry.model}"`;
}
