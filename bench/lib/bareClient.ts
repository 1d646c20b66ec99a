// The bare clients the floor benches measure against: a Node script that POSTs N chat completions, IN_FLIGHT at a time,
// and nothing else (`node <file> <baseUrl> <total> <inFlight>`).

/**
 * The bare clients: N chat completions, IN_FLIGHT at a time, each a fresh small body, nothing else — through Node's
 * fetch (undici), and through node:http with the global keep-alive agent (what the SDKs are given, nodeFetch.ts).
 */
export const BARE_CLIENT = (post: string) => `
const http = require('node:http');
const [baseUrl, total, inFlight] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const post = ${post};
let next = 0;
async function worker() {
  while (next < total) {
    const i = next++;
    await post(baseUrl + '/chat/completions', JSON.stringify({ model: 'fixture-model', messages: [{ role: 'user', content: 'Question ' + i + '? Passages: ' + 'x'.repeat(600) }] }));
  }
}
Promise.all(Array.from({ length: inFlight }, worker)).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
`;
export const FETCH_POST = `async (url, body) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fixture' }, body })).json()`;
export const HTTP_POST = `(url, body) => new Promise((resolve, reject) => {
  const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fixture' } }, (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
  });
  request.on('error', reject);
  request.end(body);
})`;

