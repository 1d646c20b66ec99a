// Why a run's signal fired: a person's Cancel, or the host going away (a VS Code window closing or reloading) with the
// run left to be resumed.
//
// Cancel ends a run: its remote batches are cancelled and the log gets a `cancelled` summary. A host that goes away
// does not choose to end anything: the run stops where it is, its vendor batches keep running (they are recorded in
// the log, and paid for), and the log is left without a summary, so it reads as interrupted and Resume collects the
// batches instead of sending them again. The host aborts the run's controller with a RunDetached as the reason.

export class RunDetached extends Error {
  constructor(why = 'the run was left to be resumed: its host is going away') {
    super(why);
    this.name = 'RunDetached';
  }
}

/** Whether `signal` fired because the run's host went away (not a person's Cancel). */
export function isDetached(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof RunDetached;
}
