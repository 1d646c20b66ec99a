// `rag-inspector log <run|latest>`: each case of a run as it was sent and scored, one plain JSON line per case
// (`{"case": …, "result": …}`, texts and shared values resolved), for jq, pandas and scripts — read by the same run
// log readers as the reports and the inspector, so a case reads here as the inspector shows it.
import { parseArgs } from 'node:util';
import { isFailure, splitCaseKey } from '../core/model.js';
import { readCaseLines, scanRunLog } from '../core/run/runLog.js';
import type { RunLogProblem } from '../core/run/runLog.js';
import { commandHelp } from './commandHelp.js';
import { print, printAndWait, terminalJson } from './terminal.js';

const EXIT_OK = 0;
const EXIT_ERROR = 2;

/** Runs `log`; `resolveRun` turns "latest", a run id or a path into a log file. Returns the exit code. */
export async function runLogCommand(argv: string[], resolveRun: (value: string) => Promise<string>): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { case: { type: 'string', multiple: true }, failed: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (error) {
    print(process.stderr, `rag-inspector log: ${(error as Error).message}\n(rag-inspector log --help shows the options)\n`);
    return EXIT_ERROR;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    print(process.stdout, `${commandHelp('log')}\n`);
    return EXIT_OK;
  }
  const [run, ...rest] = positionals;
  if (!run || rest.length > 0) {
    print(process.stderr, 'rag-inspector log: needs one run: rag-inspector log <run-log|run-id|latest>\n(rag-inspector log --help shows the options)\n');
    return EXIT_ERROR;
  }
  const file = await resolveRun(run);
  const scan = await scanRunLog(file);
  const wanted = new Set(values.case ?? []);
  if (wanted.size > 0) {
    const ids = new Set([...scan.winners.keys()].map((key) => splitCaseKey(key).caseId));
    const unknown = [...wanted].filter((id) => !ids.has(id));
    if (unknown.length > 0) {
      const some = [...ids].slice(0, 3).map((id) => JSON.stringify(id)).join(', ');
      print(process.stderr, `rag-inspector log: run ${scan.header.runId} has no case ${unknown.map((id) => JSON.stringify(id)).join(', ')}\n  its case ids look like ${some || '(it has no cases)'}: rag-inspector log ${run} | jq -r .case.id lists them\n`);
      return EXIT_ERROR;
    }
  }
  const reported = reportProblems(file, scan.problems, 0);
  let printed = reported;
  for await (const line of readCaseLines(scan)) {
    // A case the reader could not rebuild is added to the scan's problems as it is met: said where it is, in order.
    printed = reportProblems(file, scan.problems, printed);
    if (wanted.size > 0 && !wanted.has(line.case.id)) continue;
    if (values.failed && !isFailure(line.result)) continue;
    if (!(await printAndWait(process.stdout, `${terminalJson({ case: line.case, result: line.result })}\n`))) return EXIT_OK;
  }
  reportProblems(file, scan.problems, printed);
  // A line lost (not a last line cut short by a crash) is an error: the listing is missing a case.
  return scan.problems.some((problem) => problem.severity === 'error') ? EXIT_ERROR : EXIT_OK;
}

/** Prints the problems from `from` on, each at its line; returns how many have been printed. */
function reportProblems(file: string, problems: readonly RunLogProblem[], from: number): number {
  for (const problem of problems.slice(from)) print(process.stderr, `${file}:${problem.line}: ${problem.severity}: ${problem.message}\n`);
  return problems.length;
}
