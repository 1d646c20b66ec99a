// The OpenAI SDK as a bundle of its own (dist/vendor/openai.js): loaded by load.ts when a run first calls an OpenAI or
// OpenAI-compatible model, so a run that uses none never parses it. Only what core uses as a value is re-exported.
export { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAI, toFile } from 'openai';
