// The Anthropic SDK as a bundle of its own (dist/vendor/anthropic.js, ~1.2 MB, the largest part of the CLI before it
// moved out): loaded by load.ts when a run first calls an Anthropic model. Only what core uses as a value is re-exported.
export { Anthropic, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
