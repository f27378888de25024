/**
 * The error the emulator's domain raises (the structure of a site, the records): what went wrong
 * in the domain's words. Only the HTTP layer (http.ts) turns it into a status and an error body.
 */

export type EmulatorDomainErrorCode = 'invalid' | 'not-found' | 'conflict';

export class EmulatorDomainError extends Error {
  readonly code: EmulatorDomainErrorCode;

  constructor(code: EmulatorDomainErrorCode, message: string) {
    super(message);
    this.name = 'EmulatorDomainError';
    this.code = code;
  }
}

/** A request the domain refuses as it stands (the HTTP layer answers 400). */
export function invalid(message: string): EmulatorDomainError {
  return new EmulatorDomainError('invalid', message);
}
