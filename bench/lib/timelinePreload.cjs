// Preloaded (`node --require`) into a `rag-inspector run` by bench/floorTimeline.ts: notes when the process sent its
// first HTTP request and received the end of its last answer, with its CPU then, and at exit writes them (ms from the
// process's time origin) as one JSON line to $TIMELINE_OUT.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload: it patches node:http before the CLI loads */
const http = require('node:http');
const { appendFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const marks = { firstRequestMs: undefined, firstRequestCpuMs: undefined, lastAnswerMs: undefined, lastAnswerCpuMs: undefined };
const request = http.request;
http.request = function timedRequest(...args) {
  if (marks.firstRequestMs === undefined) {
    marks.firstRequestMs = performance.now();
    marks.firstRequestCpuMs = cpuMs();
  }
  const sent = request.apply(this, args);
  sent.on('response', (response) => response.on('end', () => {
    marks.lastAnswerMs = performance.now();
    marks.lastAnswerCpuMs = cpuMs();
  }));
  return sent;
};
process.on('exit', () => {
  appendFileSync(process.env.TIMELINE_OUT, `${JSON.stringify({ ...marks, exitMs: performance.now(), exitCpuMs: cpuMs() })}\n`);
});
