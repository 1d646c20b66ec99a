// The provider names an eval file may use, read off the vendor table (registry.ts), and the names a host contributes.
export { BATCH_PROVIDER_NAMES, EMBEDDING_PROVIDER_NAMES, HOST_PROVIDER_NAMES, PROVIDER_NAMES } from './registry.js';
