// Entry of the inspector webview bundle: picks the VS Code or the static API and mounts the app.
import { StaticApi } from './api/staticApi.js';
import { embeddedFormat, STATIC_DATA_ELEMENT_ID, SWEEP_DATA_FORMAT } from './api/staticData.js';
import { VsCodeApi } from './api/vscodeApi.js';
import type { InspectorApi } from './api/inspectorApi.js';
import { installDocumentStyles, installFallbackTheme } from './theme/documentStyles.js';
import { InspectorApp } from './components/inspectorApp.js';
import { SweepView } from './components/sweepView.js';
import { readSweep } from './state/sweep.js';
import { QuestionReview } from './components/questionReview.js';
import { QUESTION_REVIEW_FORMAT } from '../src/core/corpus/questions/reviewView.js';

function createApi(): InspectorApi {
  // Inside a VS Code webview the host supplies acquireVsCodeApi; anywhere else the data is in the page.
  if (typeof acquireVsCodeApi === 'function') return new VsCodeApi(acquireVsCodeApi());
  installFallbackTheme();
  return StaticApi.fromDocument();
}

function showFatal(message: string): void {
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.textContent = message;
  document.body.append(p);
}

/** sweep.html and VS Code's sweep panel: the same bundle draws the embedded sweep instead of runs (in VS Code, with its host). */
function showSweep(): void {
  // VS Code's webview supplies the theme's colours and a host that runs cells end to end; a page opened in a browser
  // gets the fallback theme and no host.
  const inVsCode = typeof acquireVsCodeApi === 'function';
  if (!inVsCode) installFallbackTheme();
  const sweep = readSweep(document.getElementById(STATIC_DATA_ELEMENT_ID)?.textContent ?? '');
  if (typeof sweep === 'string') {
    showFatal(`RAG Inspector could not show the sweep: ${sweep}`);
    return;
  }
  const view = new SweepView();
  view.report = sweep;
  if (inVsCode) view.api = new VsCodeApi(acquireVsCodeApi());
  document.body.append(view);
}

/** VS Code's Review Generated Questions panel: the review view, its data asked of the host. */
function showQuestionReview(): void {
  if (typeof acquireVsCodeApi !== 'function') {
    showFatal('The review of generated questions runs in VS Code (RAG Inspector: Review Generated Questions).');
    return;
  }
  const view = new QuestionReview();
  view.api = new VsCodeApi(acquireVsCodeApi());
  document.body.append(view);
}

installDocumentStyles();
try {
  const format = embeddedFormat(document);
  if (format === SWEEP_DATA_FORMAT) {
    showSweep();
  } else if (format === QUESTION_REVIEW_FORMAT) {
    showQuestionReview();
  } else {
    const api = createApi();
    const app = document.querySelector('rag-inspector-app') ?? document.body.appendChild(new InspectorApp());
    void (app as InspectorApp).start(api);
  }
} catch (error) {
  showFatal(`RAG Inspector could not start: ${error instanceof Error ? error.message : String(error)}`);
}
