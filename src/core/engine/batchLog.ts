// Batch mode for a process that writes a run log — a run, or an explanation's variant log (a run log too): each vendor
// batch is recorded in the log the moment it is submitted, and the batches an earlier process recorded there are
// collected instead of submitted again. One place, so a run and an explanation resume the same way.
import type { SubmittedBatch } from '../providers/batch.js';
import type { BatchLine, RunLogWriter } from '../run/runLog.js';
import type { BatchEvent } from './batchProgress.js';
import type { RunBatchOptions } from './clients.js';

export class BatchLog {
  /** What createRunClients is given: the signal, where a batch is recorded, and the earlier process's batches. */
  readonly options: RunBatchOptions;
  private writer: RunLogWriter | undefined;
  /** Waves being submitted: each removes itself once its batches are recorded (or its create failed). */
  private readonly submissions = new Set<Promise<void>>();

  /** `earlier`: the log's batch lines when it is resumed; `onEvent`: each batch submitted, and each poll of it. */
  constructor(signal: AbortSignal, earlier: readonly BatchLine[], onEvent: (event: BatchEvent) => void = () => undefined) {
    this.options = {
      runSignal: signal,
      onSubmitted: (modelKey, batch) => this.record(modelKey, batch, onEvent),
      onSubmitting: (submission) => {
        this.submissions.add(submission);
        void submission.finally(() => this.submissions.delete(submission)).catch(() => undefined);
      },
      resumed: earlier.map((line) => ({ modelKey: line.modelKey, batch: { batchId: line.batchId, inputFileId: line.inputFileId, customIds: line.requests } })),
      onProgress: (modelKey, progress) => onEvent({ type: 'batch', modelKey, ...progress }),
    };
  }

  /** Batches are submitted only once cases run, after the log is open: from here on they are written to it. */
  writeTo(writer: RunLogWriter): void {
    this.writer = writer;
  }

  /**
   * Resolves once no wave is being submitted. The run awaits it before its summary and close: a cancel that arrives
   * while a batch is being created would otherwise close the log first, and the batch the vendor then creates could
   * be neither recorded nor cancelled. (A create is bounded by its own time limit, so this cannot wait forever.)
   */
  async submissionsSettled(): Promise<void> {
    while (this.submissions.size > 0) await Promise.allSettled([...this.submissions]);
  }

  private record(modelKey: string, batch: SubmittedBatch, onEvent: (event: BatchEvent) => void): void {
    // A batch with nowhere to be recorded could not be collected by a resumed run: better no run than a lost batch.
    if (!this.writer) throw new Error('a batch was submitted before the run log was opened');
    this.writer.appendBatch({ modelKey, batchId: batch.batchId, ...(batch.inputFileId !== undefined ? { inputFileId: batch.inputFileId } : {}), submittedAt: new Date().toISOString(), requests: batch.customIds });
    onEvent({ type: 'batch', modelKey, batchId: batch.batchId, state: 'submitted', done: 0, total: batch.customIds.length });
  }
}
