// Checks beyond the schema: unique suite ids, files that exist, thresholds whose min is not above max, an OTLP export
// endpoint that is a usable URL.
import { regularFileProblem } from '../regularFile.js';
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { otlpEndpointProblem } from '../traces/otlpExport.js';
import type { YamlLocator } from './yamlPositions.js';
import type { PathSegment } from '../errors.js';

type Raw = Record<string, unknown>;

export const asRecord = (value: unknown): Raw | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : undefined;

/** The eval file's suites as records (anything else is already a schema error). */
export function suitesOf(data: Raw): Array<[number, Raw]> {
  const suites = Array.isArray(data.suites) ? data.suites : [];
  return suites.flatMap((suite, index) => {
    const record = asRecord(suite);
    return record ? [[index, record] as [number, Raw]] : [];
  });
}

export function duplicateSuiteIds(data: Raw, locator: YamlLocator): InputError[] {
  const firstLine = new Map<string, number | undefined>();
  const errors: InputError[] = [];
  for (const [index, suite] of suitesOf(data)) {
    if (typeof suite.id !== 'string') continue;
    const position = locator.valueAt(['suites', index, 'id']);
    if (!firstLine.has(suite.id)) {
      firstLine.set(suite.id, position.line);
      continue;
    }
    errors.push(new InputError(position, `duplicate suite id '${suite.id}'`, `it is already used on line ${firstLine.get(suite.id)}; suite ids must be unique`));
  }
  return errors;
}

export function thresholdRanges(data: Raw, locator: YamlLocator): InputError[] {
  const errors: InputError[] = [];
  for (const [index, suite] of suitesOf(data)) {
    for (const [metric, bounds] of Object.entries(asRecord(suite.thresholds) ?? {})) {
      const { min, max } = asRecord(bounds) ?? {};
      if (typeof min === 'number' && typeof max === 'number' && min > max) {
        errors.push(new InputError(locator.valueAt(['suites', index, 'thresholds', metric]), `threshold '${metric}' has min ${min} above max ${max}`, 'swap them, or drop one bound'));
      }
    }
  }
  return errors;
}

/** Every dataset/template path in the file, where it is written, resolved against the eval file's folder. */
export async function missingFiles(data: Raw, folder: string, locator: YamlLocator): Promise<InputError[]> {
  const paths: Array<{ segments: PathSegment[]; kind: 'dataset' | 'template'; value: string }> = [];
  const collect = (segments: PathSegment[], record: Raw) => {
    for (const kind of ['dataset', 'template'] as const) {
      const value = record[kind];
      if (typeof value === 'string' && value !== '') paths.push({ segments: [...segments, kind], kind, value });
    }
  };
  collect([], data);
  for (const [index, suite] of suitesOf(data)) collect(['suites', index], suite);
  const problems = await Promise.all(paths.map(async ({ segments, kind, value }) => {
    const absolute = path.resolve(folder, value);
    const problem = await regularFileProblem(absolute);
    if (!problem) return undefined;
    const message = problem.kind === 'missing' ? `${kind} file not found: ${absolute}` : `${kind} path ${problem.says}: ${absolute}`;
    return new InputError(locator.valueAt(segments), message, `paths are relative to the eval file's folder (${folder})`);
  }));
  return problems.filter((problem): problem is InputError => problem !== undefined);
}

/** `export.otlp.endpoint` must be a URL the exporter can send to (the schema checks only that it starts with http(s)://). */
export function exportEndpointProblems(data: Raw, locator: YamlLocator): InputError[] {
  const endpoint = asRecord(asRecord(data.export)?.otlp)?.endpoint;
  if (typeof endpoint !== 'string' || !/^https?:\/\//i.test(endpoint)) return [];
  const problem = otlpEndpointProblem(endpoint);
  return problem ? [new InputError(locator.valueAt(['export', 'otlp', 'endpoint']), `export.otlp.endpoint ${problem}`, 'write the OTLP/HTTP traces URL, e.g. http://localhost:6006/v1/traces')] : [];
}
