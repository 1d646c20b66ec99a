// A sweep cell as an eval file of its own, for the end-to-end part (the cells `sweep.endToEnd` names): the sweep's rag
// suite alone, sending the cell's k passages, with the retriever set to the cell's settings — the index rebuilt with
// them, or the user's retriever given them as params — so the engine runs it like any eval file (template, models,
// scorer, failure split) and the cell's accuracy sits beside its retrieval metrics.
import type { EvalSpec } from '../../spec/types.js';
import { settingParams } from './cellRetriever.js';
import type { SweepCell, SweepGrid } from './grid.js';
import { indexOfSetting } from './indexCells.js';

/** The eval file `spec` reduced to suite `suiteId` and set to `cell`'s settings; its name says which cell. */
export function cellEvalSpec(spec: EvalSpec, grid: Pick<SweepGrid, 'settings'>, cell: SweepCell, suiteId: string): EvalSpec {
  const setting = grid.settings.find((s) => s.key === cell.queryKey);
  if (!setting) throw new Error(`sweep cell ${cell.key} has no query setting in the grid`);
  const suites = spec.suites.filter((suite) => suite.id === suiteId).map((suite) => {
    const candidates = typeof suite.params.candidates === 'number' ? suite.params.candidates : 0;
    return { ...suite, params: { ...suite.params, k: cell.settings.k, candidates: Math.max(candidates, cell.settings.k) } };
  });
  if (suites.length === 0) throw new Error(`no suite "${suiteId}" in ${spec.file}`);
  const name = `${spec.name} — sweep cell ${cell.key}`;
  if (spec.index) return { ...spec, name, suites, index: indexOfSetting(spec.index, setting) };
  const retriever = spec.retriever;
  if (retriever?.type === 'command' || retriever?.type === 'http') {
    return { ...spec, name, suites, retriever: { ...retriever, params: { ...retriever.params, ...settingParams(setting) } } };
  }
  throw new Error('an end-to-end sweep cell needs an index: or a retriever: of type command or http');
}
