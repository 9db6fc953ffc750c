// The window's credential, and how a browser gets it and checks it still talks to the engine that
// gave it. The token is minted at every start and kept in memory only, so one captured while the
// engine was down, or from an earlier run, opens nothing. A browser is handed a one-time code
// rather than the token where the address could be seen (a page opened on its behalf), and before
// a window sends its token again after losing touch, the server proves it holds the same token
// (an HMAC of the window's nonce), so whoever took over the port learns nothing.
import { createHmac, randomBytes } from 'node:crypto';
import { mintToken, sameSecret } from './daemon-info.js';

/** How long a one-time code for opening the window is good for. */
export const CODE_TTL_MS = 60_000;

export const helloProof = (token: string, nonce: string): string => createHmac('sha256', token).update(`lanes-hello:${nonce}`).digest('hex');

export class WindowAccess {
  readonly token = mintToken();
  private readonly codes = new Map<string, number>();

  constructor(private readonly onRedeemed: () => void = () => {}) {}

  /** A code good for one use within a minute. */
  mintCode(now = Date.now()): string {
    for (const [code, expires] of this.codes) if (expires <= now) this.codes.delete(code);
    const code = randomBytes(24).toString('hex');
    this.codes.set(code, now + CODE_TTL_MS);
    return code;
  }

  /** The token for a code still good, used up now; null otherwise. */
  redeem(code: string, now = Date.now()): string | null {
    for (const [known, expires] of this.codes) {
      if (!sameSecret(code, known)) continue;
      this.codes.delete(known);
      if (expires <= now) return null;
      this.onRedeemed();
      return this.token;
    }
    return null;
  }

  /** What the window's nonce must come back as from the engine that holds its token. */
  proof(nonce: string): string {
    return helloProof(this.token, nonce);
  }
}
