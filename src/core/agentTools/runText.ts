// A run read back for an agent as compact text: its failed cases one line each with the first cause, and one case in
// full (documents by role, response, scores with the judge's words), long texts cut so an answer stays small.
import { failureMessage } from '../report/runData.js';
import type { RunData, RunEntry } from '../report/runData.js';

const DOCUMENT_PREVIEW_CHARS = 600;

/** The failed and errored cases of a run, one line each with the first cause, at most `limit`. */
export async function failureLines(run: RunData, limit: number): Promise<string> {
  const lines: string[] = [];
  let failures = 0;
  for await (const { evalCase, result } of run.entries()) {
    if (result.status === 'success' && result.pass !== false) continue;
    failures += 1;
    if (lines.length < limit) lines.push(`${result.caseId} [${result.modelKey}]${evalCase ? ` ${evalCase.suiteId}` : ''}: ${failureMessage(result)}`);
  }
  if (failures === 0) return `run ${run.runId}: no failed or errored case`;
  return [`run ${run.runId}: ${failures} failed or errored case(s)${failures > lines.length ? `, the first ${lines.length} (limit raises it)` : ''}; show_case or explain_case takes an id`, ...lines].join('\n');
}

/** The models a run has `caseId` on, in the log's order. */
export async function modelsOfCase(run: RunData, caseId: string): Promise<string[]> {
  const models: string[] = [];
  for await (const { result } of run.entries()) if (result.caseId === caseId && !models.includes(result.modelKey)) models.push(result.modelKey);
  return models;
}

function preview(text: string): string {
  return text.length > DOCUMENT_PREVIEW_CHARS ? `${text.slice(0, DOCUMENT_PREVIEW_CHARS)}… (${text.length} characters)` : text;
}

export function caseText({ evalCase, result }: RunEntry): string {
  const lines = [`case ${result.caseId} on ${result.modelKey}: ${result.status === 'error' ? 'error' : result.pass === true ? 'passed' : result.pass === false ? 'failed' : 'no verdict'}`];
  if (evalCase) {
    lines.push(`question: ${evalCase.question}`, `documents (${evalCase.documents.length}, in the order sent):`);
    for (const doc of evalCase.documents) lines.push(`  [${doc.id}] ${doc.role}: ${preview(doc.text)}`);
  }
  if (result.response) lines.push(`response: ${preview(result.response.text)}`);
  if (result.error) lines.push(`error (${result.error.stage}, ${result.error.kind}): ${result.error.message}`);
  for (const score of result.scores) {
    const verdict = score.judgeError ? `undetermined (judge error: ${score.judgeError})` : `${score.value ?? '—'}${score.pass === undefined ? '' : score.pass ? ' pass' : ' fail'}${score.label ? ` (${score.label})` : ''}`;
    lines.push(`score ${score.metric}: ${verdict}${score.explanation ? ` — ${preview(score.explanation)}` : ''}`);
  }
  return lines.join('\n');
}
