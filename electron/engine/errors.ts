import type { LanesErrorBody } from '../../shared/requests.js';

type Code = LanesErrorBody['error']['code'];

/** An error meant for the person: the API turns it into a 4xx, the CLI prints its message. */
export class LanesError extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'LanesError';
  }

  toBody(): LanesErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) } };
  }
}

export const badRequest = (message: string, field?: string) => new LanesError('bad_request', message, field);
export const notFound = (message: string, field?: string) => new LanesError('not_found', message, field);
export const conflict = (message: string, field?: string) => new LanesError('conflict', message, field);
