// Each command's own help (`rag-inspector <command> --help`): usage, options, an example. The overall usage is built
// from the same option lists (args.ts), so an option is described once.
import { REPORT_FORMATS } from '../core/report/writeReports.js';

export const RUN_OPTIONS = `  --model <provider:model>   model under test (repeatable); replaces the eval file's models
  --provider <name>          provider for --model values given without one (openai, anthropic, openai-compatible, extractive)
  --concurrency <n>          calls in flight per model
  --batch                    send the calls of every model (and the judge) whose vendor has a batch API (openai, openai-compatible, anthropic) through it
  --no-batch                 every call interactive, even where the eval file says batch: true or the resumed run was batched
  --no-cache                 no response cache at all: every request goes to the model, nothing is stored
  --refresh                  call the models even when an answer is cached, and store the fresh answers
  --resume <run>             finish an interrupted run: a run log path, a run id, or "latest"
  --retry-errors             with --resume: also run again the cases that ended in an error
  --rerun-failed [run]       a new run of the failed and errored cases of a run (default: the latest)
  --no-preflight             skip the first check of each server and model (one cheap request each)
  --out <folder>             where reports go (default .rag-inspector/reports/<run-id>)
  --format <list>            report formats, comma-separated: ${REPORT_FORMATS.join(', ')} (default all)
  --quiet                    no progress output
  --contain                  for eval files you did not write (CI on pull requests): refuse, before reading anything,
                             any dataset, template or haystack outside the eval file's folder tree (symbolic links
                             followed), and any baseUrl the eval file sets unless allowed with --allow-endpoint
  --allow-endpoint <url>     with --contain: a baseUrl the eval file may use (repeatable, exact URL)
  --export-otlp <url>        also send each case as an OpenInference trace to this OTLP/HTTP endpoint (run, report);
                             the eval file's export.otlp does the same with headers from environment variables
  --baseline <run>           compare the run with an earlier one, pair by pair (as rag-inspector compare does)
  --fail-on regression       with --baseline: exit 1 when a suite's case verdicts got significantly worse
  --level <p>                significance level of --baseline's verdicts (default 0.05)`;

export const EXPLAIN_OPTIONS = `  --case <id>                explain this case (repeatable); with --failed, only its failed models
  --failed                   explain every failed case (the default when no --case is given)
  --variants <list>          leave-one-out, random subsets, position sweep, instruction removal (default all)
  --max-calls <n>            at most n model calls (cached answers are free); the rest of the variants are left out
  --plan                     print the cost plan (calls, cached, estimated USD) and stop
  --no-cache, --out, --format, --quiet as for run; explanations are kept in .rag-inspector/explanations/`;

export const IMPORT_TRACES_FILTERS = `--since/--until <ISO time> (trace start), --where <attribute>=<value> (on any span,
repeatable), --score-below <name>=<x> (a score on the trace; document.score: the best passage's), --sample <n>.`;

export const EXIT_CODES = 'Exit codes: 0 thresholds pass, 1 a threshold failed, 2 an error, 130 cancelled with Ctrl-C.';

/** "latest", as explain and the run options take it. */
const LATEST = `"latest" is the newest run: for run, beside the eval file; for explain, under the current folder tree.`;

const HELP: Readonly<Record<string, string>> = {
  compare: `Usage: rag-inspector compare <run-a> <run-b> [--level 0.05] [--json]

Compares two runs of the same cases (before: run-a, after: run-b), pair by pair: per suite, model and metric, the
cases fixed and broken, the change with its paired interval, the exact McNemar p-value for verdicts (a paired
bootstrap interval for continuous scores), and a verdict: better, worse, or no detectable change at this size.
Cases present in only one run are listed apart. A run is a run log path, a run id, or "latest".

Options:
  --level <p>   significance level of the verdicts (default 0.05); p-values are per metric, not corrected
  --json        print the comparison as JSON

Example:
  rag-inspector compare .rag-inspector/runs/2026-11-27T10-00-00-1a2b3c.jsonl latest`,

  log: `Usage: rag-inspector log <run-log|run-id|latest> [--case <id>]… [--failed]

Prints each case of a run as it was sent and scored: one JSON line per case and model, {"case": …, "result": …},
with every text whole (the run log writes long texts and repeated values once; this puts them back), in the order
the cases finished. For jq, pandas and your own scripts: the run log's own lines are for RAG Inspector's readers.
A damaged line of the log is named on stderr at its line number and the other cases are still printed (exit 2).
"latest" is the newest run under the current folder's tree.

Options:
  --case <id>   only this case (repeatable); a case id the run does not have is an error (exit 2)
  --failed      only the cases that failed or ended in an error

Example:
  rag-inspector log latest --failed | jq -r '[.case.id, .result.modelKey, .result.response.text] | @tsv'`,

  mcp: `Usage: rag-inspector mcp [--root folder] [--max-cost usd] [--contain] [--allow-endpoint url]…

Serves RAG Inspector's tools to an editor's agent over MCP (stdio): run_eval, list_failures, show_case, explain_case,
compare_runs. Eval files and runs are found in the workspace folder: --root, else the folder the server starts in.

Options:
  --root <folder>        the workspace folder (default: the current folder)
  --max-cost <usd>       refuse a run or an explanation whose estimated cost is above this (default 0: only free or
                         local models, and calls already in the cache)
  --contain              refuse eval files whose paths leave the folder, and endpoints they choose (as run --contain)
  --allow-endpoint <url> with --contain: a baseUrl eval files may use (repeatable)

Setup: VS Code (.vscode/mcp.json) {"servers":{"rag-inspector":{"command":"npx","args":["rag-inspector","mcp"]}}}
       Claude Code: claude mcp add rag-inspector -- npx rag-inspector mcp
       Cursor (.cursor/mcp.json) {"mcpServers":{"rag-inspector":{"command":"npx","args":["rag-inspector","mcp"]}}}

Example:
  rag-inspector mcp --max-cost 0.50`,

  run: `Usage: rag-inspector run <file.eval.yaml> [options]

Runs an evaluation: every method, row and model of the eval file, then writes its reports.

Options:
${RUN_OPTIONS}

${LATEST}
Keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY; OPENAI_BASE_URL points the openai provider at any
OpenAI-compatible server. ${EXIT_CODES}

Example:
  rag-inspector run examples/rgb/rgb-example.eval.yaml --format json,html`,

  report: `Usage: rag-inspector report <run-log.jsonl> [options]

Writes the reports of a run again from its log (a finished, cancelled or interrupted run).

Options:
  --out <folder>             where reports go (default .rag-inspector/reports/<run-id> beside the run's eval file)
  --format <list>            report formats, comma-separated: ${REPORT_FORMATS.join(', ')} (default all)
  --export-otlp <url>        also send each case as an OpenInference trace to this OTLP/HTTP endpoint

Example:
  rag-inspector report .rag-inspector/runs/2026-11-28T04-00-00Z-1a2b3c.jsonl --format html`,

  runs: `Usage: rag-inspector runs [folder]

Lists the runs under <folder>/.rag-inspector/runs (default: the current folder), newest first: run id, status, the
eval file's name and the log's path.

Options:
  -h, --help                 this help

Example:
  rag-inspector runs examples/rgb`,

  explain: `Usage: rag-inspector explain <run-log|run-id|latest> [options]

Says which document, position or instruction made each case come out as it did: each case is run again with its
documents varied, through the same cache and scorer.

Options:
${EXPLAIN_OPTIONS}

${LATEST}

Example:
  rag-inspector explain latest --failed --plan
  rag-inspector explain latest --case noise/17/noise=0.4 --variants loo,position --max-calls 50`,

  'generate-counterfactual': `Usage: rag-inspector generate-counterfactual <dataset> --model <provider:model> --out <file> [options]

Writes IF-RAG counterfactual data for your own QA rows with a model, to a new file you review before use.

Options:
  --model <provider:model>   the model that writes the counterfactual passages (exactly one)
  --provider <name>          provider for a --model given without one
  --out <file>               the new dataset file
  --seed <n>                 seed of the generation, so it can be repeated (default 2333)
  --concurrency <n>          calls in flight (default 4)
  --quiet                    no progress output

Exits 0 when every row got counterfactual data, 1 when some rows failed (listed, file still written), 2 on an error.

Example:
  rag-inspector generate-counterfactual qa.jsonl --model openai:gpt-4o --out qa.counterfactual.jsonl`,

  sweep: `Usage: rag-inspector sweep <eval file> [--out <folder>] [--metric <m>] [--suite <id>] [--concurrency <n>] [--no-cache] [--no-preflight] [--end-to-end]

Measures every cell of the eval file's sweep: (chunk size × overlap × embeddings × hybrid weight × reranker × top-k)
on the questions of its rag suite: recall, precision, hit rate, nDCG, MRR and R-precision at each cell's k with 95%
bootstrap intervals. No model is called. Each question is retrieved once per setting at its largest k (every smaller
k reads that ranking); with retriever: command or http, a cell's settings reach your retriever as params. The best
cell is marked and tested pair by pair against the current setting (your retriever's params and the suite's k).

Options:
  --out <folder>             where sweep.json and sweep.csv go (default .rag-inspector/reports/sweep-<time>/)
  --metric <m>               the measure the best cell is chosen by: recall, precision, hit_rate, ndcg, mrr, r_precision (default sweep.metric, else ndcg)
  --suite <id>               the rag suite whose questions are measured (default sweep.suite, else the first)
  --concurrency <n>          questions in flight per setting (default 8)
  --no-cache                 ask the retriever again (answers are cached like a run's)
  --no-preflight             skip the first check of the index's embedding models and reranker (one cheap request each)
  --quiet                    no progress output
  --end-to-end               then run the cells sweep.endToEnd names with the models (each its own run: answers,
                             scores, the failure split; model calls, cached like a run's;
                             their cost plan is printed first, with or without this flag)

Exits 0 when every cell was measured, 1 when some retrievals failed, rows were skipped or an end-to-end case errored,
2 on an error.

Example:
  rag-inspector sweep examples/sweep/sweep.eval.yaml --out sweep-out`,

  'generate-questions': `Usage: rag-inspector generate-questions <file.eval.yaml> --out <questions.jsonl> [options]

Writes test questions from the chunks of the eval file's index: corpus. Each records its source chunk ids
(relevant_ids, graded in relevance: 2 states the answer, 1 supports it), the exact char spans of its evidence
(relevant_spans) and the checks it passed. Kinds: single-hop (one chunk), multi-hop (two related chunks combined),
unanswerable (the corpus lacks it: searched and judged), conflicting (the chunk rewritten to state another answer).
The first model of the eval file writes them, its judge checks them, its embedding model finds near-duplicates.
Rejected questions go to <out>.rejected.jsonl with the reason. Running the command again skips finished questions.

Options:
  --out <questions.jsonl>      the questions file (appended to; rejected ones beside it)
  --count <n>                  questions to plan, the kinds taking turns (default 20)
  --kinds <k,…>                single-hop, multi-hop, unanswerable, conflicting (default all)
  --seed <n>                   which chunks, and the sampling seed (default 2333)
  --model <provider:model>     the model that writes the questions (default: the eval file's first model)
  --concurrency <n>            questions in progress at once (default 4)
  --duplicate-threshold <c>    embedding cosine at which a question duplicates a kept one (default 0.92)
  --plan                       print the cost plan only
  --no-cache                   neither read nor write the response cache
  --quiet                      no progress output

Exits 0 when every planned question was kept or rejected by a check, 1 when some failed on a call (run again to ask
them again), 2 on an error, 130 when cancelled (finished questions are kept).

Example:
  rag-inspector generate-questions corpus.eval.yaml --out questions.jsonl --count 40 --kinds single-hop,unanswerable`,
  index: `Usage: rag-inspector index <file.eval.yaml> [--no-cache] [--quiet] [--contain] [--allow-endpoint url]…

Builds the eval file's index: (or brings it up to date) under .rag-inspector/index/<hash of settings>/: reads the
folder, chunks the files that changed since the last build (an unchanged file is not read into chunks again),
embeds the new chunks (dense and hybrid; vectors cached by model and text, so only new text costs anything),
writes them to the store, and prints what it did. A run builds it too, on its first question; this command does it
ahead, with progress. Ctrl-C cancels: run the command again and it goes on from where it stopped.

Options:
  --no-cache               do not read or write the embedding cache
  --quiet                  no progress lines
  --contain, --allow-endpoint  as for run: the folder must be inside the eval file's folder tree

Example:
  rag-inspector index examples/corpus/corpus-example.eval.yaml`,

  'import-traces': `Usage: rag-inspector import-traces <file|folder> --out <dataset.jsonl> [filters]

Turns OTLP JSON, Phoenix or Langfuse trace exports into dataset rows (a folder imports every trace file in it).

Options:
  --out <dataset.jsonl>      the dataset to write
  --since/--until <time>     traces that started from / before this ISO 8601 time
  --where <attribute>=<v>    only traces with this attribute value on any span (repeatable)
  --score-below <name>=<x>   only traces with a score below x (document.score: the best passage's)
  --sample <n> --seed <n>    a seeded random sample of n traces

Exits 0 when every trace imported, 1 when some were skipped (listed; the file is still written), 2 on an error.

Example:
  rag-inspector import-traces traces.jsonl --out dataset.jsonl --since 2026-11-01`,
};

export const COMMANDS = Object.keys(HELP);

/** The help of `command`, or undefined when there is no such command. */
export function commandHelp(command: string): string | undefined {
  return HELP[command];
}

/** Asks for help: `--help` or `-h` anywhere before a `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** The one line that ends a usage error: where the command's help is. */
export function helpLine(program: string, command: string | undefined): string {
  return command && HELP[command] ? `see ${program} ${command} --help` : `see ${program} --help`;
}
