// Long work the user may stop: a cancellable notification whose Cancel (or a caller's token) aborts the signal handed
// to core, with progress messages throttled (a sweep answers hundreds of questions a second).
import * as vscode from 'vscode';

/** Progress messages at most this often. */
const PROGRESS_INTERVAL_MS = 100;

/** A cancellable notification; the token aborts the signal handed to core. */
export function withCancellableProgress<T>(title: string, alsoCancelledBy: vscode.CancellationToken | undefined, work: (report: (message: string, force?: boolean) => void, signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `RAG Inspector: ${title}`, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const abort = () => controller.abort(new Error('cancelled'));
    const cancel = token.onCancellationRequested(abort);
    const cancelToo = alsoCancelledBy?.onCancellationRequested(abort);
    if (alsoCancelledBy?.isCancellationRequested) abort();
    let last = 0;
    const report = (message: string, force = false) => {
      const now = Date.now();
      if (!force && now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      progress.report({ message });
    };
    try {
      return await work(report, controller.signal);
    } finally {
      cancel.dispose();
      cancelToo?.dispose();
    }
  });
}
