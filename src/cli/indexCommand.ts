// `rag-inspector index <file.eval.yaml>`: builds (or brings up to date) the eval file's `index:` ahead of a run, with
// progress on stderr, Ctrl-C to cancel (the next build goes on from where it stopped), and what it did on stdout.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { describeBuild } from '../core/corpus/build.js';
import type { IndexBuildSummary } from '../core/corpus/contract.js';
import type { InputError } from '../core/errors.js';
import { indexRetrieverOf } from '../core/engine/retriever.js';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import { envCredentials } from '../core/providers/registry.js';
import { RetrieverError } from '../core/retrieval/contract.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { UsageError } from './args.js';
import { print } from './terminal.js';
import { IndexProgressLines } from './indexProgress.js';

export interface IndexCommand {
  specFile: string;
  noCache: boolean;
  quiet: boolean;
  contain?: { allowEndpoints: string[] };
}

const EXAMPLE = 'rag-inspector index examples/corpus/corpus-example.eval.yaml';

export function parseIndexCommand(argv: string[]): IndexCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'no-cache': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      contain: { type: 'boolean', default: false },
      'allow-endpoint': { type: 'string', multiple: true },
    },
  });
  const [specFile, extra] = positionals;
  if (!specFile) throw new UsageError(`index needs an eval file with an index: block: ${EXAMPLE}`);
  if (extra) throw new UsageError(`index takes one eval file, got also '${extra}'`);
  if (values['allow-endpoint'] && !values.contain) throw new UsageError('--allow-endpoint goes with --contain: without it every endpoint the eval file names is used');
  return {
    specFile,
    noCache: values['no-cache'] ?? false,
    quiet: values.quiet ?? false,
    ...(values.contain ? { contain: { allowEndpoints: values['allow-endpoint'] ?? [] } } : {}),
  };
}

/** What the command borrows from main: --contain's options, and Ctrl-C wired to a controller. */
export interface IndexCommandHost {
  containOptions(folder: string, allowEndpoints: string[]): RunOptions['contain'];
  cancelOnSigint(controller: AbortController, note: (line: string) => void): () => void;
}

const EXIT_OK = 0;
const EXIT_ERROR = 2;
const EXIT_CANCELLED = 130;

/** Exit 0 when the index is built, 2 on an error or a file left out (its cause on stderr), 130 when cancelled. */
export async function runIndexCommand(argv: string[], host: IndexCommandHost): Promise<number> {
  const command = parseIndexCommand(argv);
  const specFile = path.resolve(command.specFile);
  const workspaceDir = path.dirname(specFile);
  const spec = await loadEvalSpec(specFile, command.contain ? host.containOptions(workspaceDir, command.contain.allowEndpoints) : {});
  if (!spec.index) {
    print(process.stderr, `rag-inspector index: ${command.specFile} has no index: block\n  add one, e.g. index: { folder: docs, search: bm25 } (README, "Index a folder")\n`);
    return EXIT_ERROR;
  }
  const lines = new IndexProgressLines(command.quiet);
  const controller = new AbortController();
  const onSigint = host.cancelOnSigint(controller, (line) => print(process.stderr, `${line}\n`));
  let summary: IndexBuildSummary | undefined;
  let problems: InputError[] = [];
  const retriever = indexRetrieverOf(spec.index, spec, process.env, {
    stateDir: path.join(workspaceDir, '.rag-inspector'),
    credentials: envCredentials(process.env),
    noCache: command.noCache,
    onProgress: (progress) => lines.show(progress),
    onBuilt: (built) => {
      summary = built.summary;
      problems = built.problems;
    },
  });
  try {
    await retriever.version(controller.signal);
    print(process.stdout, `${describeBuild(summary!)}\n`);
    if (problems.length === 0) return EXIT_OK;
    // The index holds every other file; the ones left out are an error to fix, not a pass.
    for (const problem of problems) print(process.stderr, `error: ${problem.format()}\n`);
    print(process.stderr, `rag-inspector index: ${problems.length} problem${problems.length === 1 ? '' : 's'} above: those files (or lines, or pages) are not in the index; the rest is\n`);
    return EXIT_ERROR;
  } catch (error) {
    if (controller.signal.aborted) {
      print(process.stderr, `cancelled: run the same command again to finish the index (what was embedded is cached)\n`);
      return EXIT_CANCELLED;
    }
    if (!(error instanceof RetrieverError)) throw error;
    print(process.stderr, `rag-inspector index: ${error.message}\n`);
    return EXIT_ERROR;
  } finally {
    process.off('SIGINT', onSigint);
    await retriever.close?.().catch(() => undefined);
  }
}
