// The BPE encodings, loaded on first use: they are 3.6 MB of tables, three quarters of the extension bundle, and
// parsing them on every activation tripled its load time (bench/extensionBundle.ts). The build writes each one to
// its own file beside the bundle (dist/encodings/); from sources they come straight from the package.
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export type EncodingName = 'o200k_base' | 'cl100k_base';

export interface Encoding {
  encode(text: string, options?: { disallowedSpecial?: Set<string> }): number[];
  decode(tokens: Iterable<number>): string;
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const loaded = new Map<EncodingName, Encoding>();

export function loadEncoding(name: EncodingName): Encoding {
  let encoding = loaded.get(name);
  if (!encoding) {
    const bundled = path.join(__dirname, 'encodings', `${name}.js`);
    const source = existsSync(bundled) ? bundled : `gpt-tokenizer/encoding/${name}`;
    // A computed require: the bundler leaves it alone, so the tables stay out of the bundle that activates.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    encoding = require(source) as Encoding;
    loaded.set(name, encoding);
  }
  return encoding;
}
