// Endpoints an eval file chooses (`baseUrl`), refused at their line unless the person running it allowed that exact URL (the CLI's --contain).
import { InputError } from '../errors.js';
import type { PathSegment } from '../errors.js';
import { normaliseBaseUrl, usesBaseUrl } from '../providers/registry.js';
import { asRecord } from './checks.js';
import { modelEntries } from './providerChecks.js';
import type { YamlLocator } from './yamlPositions.js';

type Raw = Record<string, unknown>;

/** The endpoints a contained run may send to, and what to say of one it may not. */
export interface EndpointAllowance {
  /** Base URLs allowed as they are (compared after normaliseBaseUrl). */
  allowed: readonly string[];
  /** Why an unlisted one is refused, e.g. "--contain: the eval file chose this endpoint". */
  reason: string;
  /** How to allow it. */
  hint: (url: string) => string;
}

/** A `baseUrl` written in the eval file for a provider that sends to it, with where it is written. */
export interface ChosenEndpoint {
  segments: PathSegment[];
  provider: string;
  url: string;
}

/** Every endpoint the eval file itself chooses: models, judge and embeddings written as mappings with `baseUrl`. */
export function chosenEndpoints(data: Raw): ChosenEndpoint[] {
  return modelEntries(data).flatMap((entry) => {
    const record = asRecord(valueAt(data, entry.segments));
    const url = record?.baseUrl;
    if (typeof url !== 'string' || url.trim() === '' || !usesBaseUrl(entry.provider)) return [];
    return [{ segments: [...entry.segments, 'baseUrl'], provider: entry.provider, url }];
  });
}

export function endpointProblems(data: Raw, locator: YamlLocator, allowance: EndpointAllowance): InputError[] {
  const allowed = new Set(allowance.allowed.map(normaliseBaseUrl));
  return chosenEndpoints(data)
    .filter((endpoint) => !allowed.has(normaliseBaseUrl(endpoint.url)))
    .map((endpoint) => new InputError(locator.valueAt(endpoint.segments), `${allowance.reason}: ${endpoint.url} (${endpoint.provider}) is not contacted`, allowance.hint(endpoint.url)));
}

function valueAt(data: Raw, segments: readonly PathSegment[]): unknown {
  let value: unknown = data;
  for (const segment of segments) value = Array.isArray(value) ? value[segment as number] : asRecord(value)?.[String(segment)];
  return value;
}
