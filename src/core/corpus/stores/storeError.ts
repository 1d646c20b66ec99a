// A vector store that cannot be used as set up: names the setting at fault and says how to fix it, so an index that
// cannot open is never an empty result list.

export class StoreError extends Error {
  /** `setting`: where the user fixes it ("index.store.urlEnv"); `hint`: what to do. */
  constructor(readonly setting: string, message: string, readonly hint?: string) {
    super(`${setting}: ${message}${hint ? ` — ${hint}` : ''}`);
    this.name = 'StoreError';
  }
}
