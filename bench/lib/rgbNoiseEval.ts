// The eval file several benches run: one RGB noise-robustness suite at noise 0 over the bench's rows (data.jsonl).

export interface RgbNoiseEvalOptions {
  name: string;
  /** A model line as YAML: "extractive:bm25", or a mapping for an endpoint. */
  model: string;
  concurrency: number;
  maxRetries?: number;
}

export function rgbNoiseEval({ name, model, concurrency, maxRetries }: RgbNoiseEvalOptions): string {
  return `version: 1
name: ${name}
models:
  - ${model}
concurrency: ${concurrency}
${maxRetries === undefined ? '' : `maxRetries: ${maxRetries}\n`}suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`;
}
