import type * as Crypto from 'node:crypto';

let crypto: typeof Crypto | undefined;

/**
 * The SHA-256 of a text or of bytes, in hex. node:crypto is loaded on first use: loading it costs every run of
 * `check` about 3 ms of start-up, and most runs hash nothing (only baselines, long fingerprints and SARIF do).
 */
export function sha256(text: string | Uint8Array): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start
  crypto ??= require('node:crypto') as typeof Crypto;
  return crypto.createHash('sha256').update(text).digest('hex');
}
