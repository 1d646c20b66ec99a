// The user's retriever script started for each question: the request as JSON on its stdin, the whole of its stdout
// the answer. Slower than a kept process, but any script that reads stdin and prints JSON works.
import { performance } from 'node:perf_hooks';
import { RetrieverError } from './contract.js';
import type { CommandRetrieverSpec, RetrievalRequest, RetrievalResponse, Retriever } from './contract.js';
import { itemsOfAnswer, parseAnswerJson, quoteText, stripBom } from './items.js';
import { AbortWatch } from './abortWatch.js';
import { wireRequest } from './wireRequest.js';
import { StderrTail, describeExit, retrieverEnv, spawnRetriever, startError } from './commandProcess.js';

/** Output beyond this is a runaway script, not an answer. */
const MAX_STDOUT_CHARS = 64 * 1024 * 1024;

export class PerCallCommandRetriever implements Retriever {
  readonly kind = 'command' as const;
  private readonly aborts = new AbortWatch();

  constructor(private readonly spec: CommandRetrieverSpec, private readonly env: NodeJS.ProcessEnv, readonly identity: string) {}

  retrieve(request: RetrievalRequest, signal: AbortSignal): Promise<RetrievalResponse> {
    if (signal.aborted) return Promise.reject(signal.reason);
    let child: ReturnType<typeof spawnRetriever>;
    try {
      child = spawnRetriever(this.spec, retrieverEnv(this.spec, this.env));
    } catch (error) {
      return Promise.reject(error);
    }
    const startedAt = performance.now();
    const stderr = new StderrTail();
    let stdout = '';
    return new Promise<RetrievalResponse>((resolve, reject) => {
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unwatch();
        settle();
      };
      // A timeout or a cancel answers at once and kills the process: a program it started may hold its stdout open.
      const stop = (reason: unknown) => {
        finish(() => reject(reason));
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop(new RetrieverError('timeout', `${this.identity} did not answer within ${this.spec.timeoutMs} ms (the retriever's timeoutMs), so it was stopped${stderr.describe()}`)), this.spec.timeoutMs);
      const unwatch = this.aborts.watch(signal, () => stop(signal.reason));
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.length > MAX_STDOUT_CHARS) stop(new RetrieverError('not-json', `${this.identity} printed more than ${MAX_STDOUT_CHARS} characters (${quoteText(stdout)}), so it was stopped.`));
      });
      child.stderr.on('data', (chunk: string) => stderr.add(chunk));
      child.stdin.on('error', () => undefined);
      child.on('error', (error) => {
        if (child.pid === undefined) finish(() => reject(startError(this.spec, error)));
      });
      child.on('close', (code, exitSignal) => finish(() => {
        if (code !== 0) return reject(new RetrieverError('crashed', `${this.identity} ${describeExit(code, exitSignal)}${stderr.describe()}`));
        try {
          resolve({ items: this.items(stdout), latencyMs: performance.now() - startedAt, cached: false });
        } catch (error) {
          reject(error);
        }
      }));
      child.stdin.end(`${JSON.stringify(wireRequest(request, this.spec.params))}\n`);
    });
  }

  private items(stdout: string): RetrievalResponse['items'] {
    const where = `the answer of ${this.identity}`;
    const answer = parseAnswerJson(stripBom(stdout), where);
    if (typeof answer === 'object' && answer !== null && !Array.isArray(answer) && 'error' in answer && !('items' in answer)) {
      const words = typeof answer.error === 'string' ? answer.error : JSON.stringify(answer.error);
      throw new RetrieverError('reported', `${this.identity} answered with an error: ${quoteText(words)}`);
    }
    return itemsOfAnswer(answer, where);
  }
}
