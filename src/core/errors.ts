/**
 * Error classes. A user's mistake (bad config, API refusal, stale plan) is a DocplaneError with a
 * stable code and a hint; anything else reaching the command layer is a bug and is reported as such.
 */

export const ExitCode = {
  ok: 0,
  failure: 1,
  changes: 2,
  refused: 3,
} as const;

export interface DocplaneErrorOptions {
  /** What the user can do about it, printed after the message. */
  hint?: string;
  /** Exit code of the process; defaults to 1. */
  exitCode?: number;
  cause?: unknown;
}

export class DocplaneError extends Error {
  readonly code: string;
  readonly hint?: string;
  readonly exitCode: number;

  constructor(code: string, message: string, options: DocplaneErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DocplaneError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? ExitCode.failure;
  }
}

/** One problem in a config file, located as file:line:column with the path inside the document. */
export interface ConfigIssue {
  file: string;
  line: number;
  column: number;
  /** Path inside the document, such as `teams[0].title`; empty for the whole file. */
  path: string;
  message: string;
}

export function formatConfigIssue(issue: ConfigIssue): string {
  const where = `${issue.file}:${issue.line}:${issue.column}`;
  return issue.path ? `${where}: ${issue.path}: ${issue.message}` : `${where}: ${issue.message}`;
}

/** Every problem of a config at once; nothing was sent anywhere. */
export class ConfigError extends DocplaneError {
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[]) {
    const first = issues[0];
    const head = issues.length === 1 ? 'the config has 1 problem' : `the config has ${issues.length} problems`;
    super('CONFIG_INVALID', first ? `${head}; first: ${formatConfigIssue(first)}` : head, {
      hint: 'Fix the listed problems and run `docplane validate` again.',
    });
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** The API answered with an error, or could not be reached. Never carries the token. */
export class ApiError extends DocplaneError {
  readonly method: string;
  readonly path: string;
  /** HTTP status, or 0 when no answer came (network error, timeout). */
  readonly status: number;
  readonly apiMessage: string;
  /** The answer's headers (lower-cased), when an answer came: apply reads a 429's wait from them. */
  readonly headers?: Record<string, string>;

  constructor(
    method: string,
    path: string,
    status: number,
    apiMessage: string,
    options: DocplaneErrorOptions & {
      code?: string;
      headers?: Record<string, string>;
      /** The whole line, when `METHOD PATH → STATUS: message` does not say it well (an answer of the wrong shape). */
      line?: string;
    } = {},
  ) {
    const what = status === 0 ? 'no answer' : String(status);
    super(options.code ?? (status === 0 ? 'API_UNREACHABLE' : `API_${status}`), options.line ?? `${method} ${path} → ${what}: ${apiMessage}`, {
      ...options,
      hint: options.hint ?? hintForStatus(status),
    });
    this.name = 'ApiError';
    this.method = method;
    this.path = path;
    this.status = status;
    this.apiMessage = apiMessage;
    if (options.headers) this.headers = options.headers;
  }
}

function hintForStatus(status: number): string | undefined {
  if (status === 0) return 'Check --api-url and the network, then run the command again.';
  if (status === 401) return 'Check DOCPLANE_TOKEN or --token-file: the API did not accept the token.';
  if (status === 403) return 'The token may not do this; use a token with write access to the organization.';
  if (status === 404) return 'Check the ids in the config against the organization.';
  if (status === 429) return 'The API is rate limiting; lower --concurrency or --max-rps and run again.';
  if (status >= 500) return 'The API failed; run the command again later.';
  return undefined;
}

/** A safety rule refused an apply (exit 3). */
export class SafetyError extends DocplaneError {
  constructor(message: string, hint = 'Review the plan; pass --force to apply anyway.') {
    super('SAFETY_REFUSED', message, { hint, exitCode: ExitCode.refused });
    this.name = 'SafetyError';
  }
}

/** Something that should never happen: a bug in docplane, not the user's doing. */
export class BugError extends DocplaneError {
  constructor(message: string, cause?: unknown) {
    super('BUG', message, { hint: 'This is a bug in docplane; run again with --verbose and report it.', cause });
    this.name = 'BugError';
  }
}
