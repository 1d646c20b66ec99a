// Owns the one evaluation run at a time: starts it through the engine, fans out its events, cancels it by its AbortController.
import * as vscode from 'vscode';
import { RunDetached } from '../core/detach.js';
import type { RunEvent } from '../core/engine/events.js';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import type { RunStatus, RunTotals } from '../core/model.js';
import type { Credentials, ProviderFactory } from '../core/providers/registry.js';
import type { EvalSpec } from '../core/spec/types.js';

/** What a command chooses about a run (caseFilter for reruns, overrides from settings); the controller adds the rest. */
export type StartOptions = Omit<RunOptions, 'signal' | 'onEvent' | 'credentials' | 'providers'>;

/** What the engine reports back; a structural subset of core's RunOutcome. */
export interface RunSummary {
  runId: string;
  status: RunStatus;
  totals: RunTotals;
}

/** The engine entry point given an eval file already loaded: core's `runEvaluation`, or a scripted stand-in in tests. */
export type EngineRun = (spec: EvalSpec, options: RunOptions) => Promise<RunSummary>;

export interface ActiveRun {
  specFile: string;
  runId?: string;
  done: number;
  total: number;
}

export interface RunController {
  readonly active: ActiveRun | undefined;
  readonly onEvent: vscode.Event<RunEvent>;
  /**
   * Runs an eval file the launcher loaded (launch.ts: every run starts there). Resolves when the run ends (including
   * cancelled); rejects on engine errors and when a run is already going.
   */
  start(spec: EvalSpec, options?: StartOptions): Promise<RunSummary>;
  /**
   * Runs work that starts engine runs of its own (a sweep's cells, one after another) as the one run going: refused
   * like `start` while another is, cancelled by Cancel Run, detached when the window goes away.
   */
  hold<T>(specFile: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Aborts the active run; false when nothing was running. */
  cancel(): boolean;
}

export class RunInProgressError extends Error {
  constructor(specFile: string) {
    super(`a run of ${specFile} is still in progress — cancel it (RAG Inspector: Cancel Run) or wait for it to finish`);
    this.name = 'RunInProgressError';
  }
}

/** The context key that shows "Cancel Run" only while something can be cancelled. */
export const RUNNING_CONTEXT_KEY = 'ragInspector.running';

export class EngineRunController implements RunController, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<RunEvent>();
  private current: { run: ActiveRun; abort: AbortController } | undefined;
  readonly onEvent = this.emitter.event;

  constructor(
    private readonly engine: EngineRun,
    private readonly credentials: Credentials,
    private readonly setContext: (running: boolean) => void = (running) =>
      void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, running),
    /** Providers only the extension has (vscode-lm), handed to every run like the credentials. */
    private readonly providers?: Readonly<Record<string, ProviderFactory>>,
  ) {}

  get active(): ActiveRun | undefined {
    return this.current ? { ...this.current.run } : undefined;
  }

  start(spec: EvalSpec, options: StartOptions = {}): Promise<RunSummary> {
    return this.occupy(spec.file, (signal, current) => this.engine(spec, {
      ...options,
      signal,
      credentials: this.credentials,
      providers: this.providers,
      onEvent: (event) => {
        if (event.type === 'run-started') Object.assign(current, { runId: event.runId, total: event.total });
        if (event.type === 'case-finished') Object.assign(current, { done: event.done, total: event.total });
        this.emitter.fire(event);
      },
    }));
  }

  hold<T>(specFile: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.occupy(specFile, work);
  }

  /** The one slot: taken for `work`'s whole life (refused while taken), with the abort Cancel Run and dispose use. */
  private async occupy<T>(specFile: string, work: (signal: AbortSignal, run: ActiveRun) => Promise<T>): Promise<T> {
    if (this.current) throw new RunInProgressError(this.current.run.specFile);
    const abort = new AbortController();
    const current = { run: { specFile, done: 0, total: 0 } as ActiveRun, abort };
    this.current = current;
    this.setContext(true);
    try {
      return await work(abort.signal, current.run);
    } finally {
      if (this.current === current) this.current = undefined;
      this.setContext(false);
    }
  }

  cancel(): boolean {
    if (!this.current || this.current.abort.signal.aborted) return false;
    this.current.abort.abort();
    return true;
  }

  /**
   * The extension host is going away (the window closes or reloads): the run is detached, not cancelled — its vendor
   * batches keep running and its log stays without a summary, so the next window offers it as interrupted and Resume
   * collects the batches instead of sending them again (detach.ts).
   */
  dispose(): void {
    if (this.current && !this.current.abort.signal.aborted) this.current.abort.abort(new RunDetached('the window closed or reloaded during the run'));
    this.emitter.dispose();
  }
}
