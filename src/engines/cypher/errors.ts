/**
 * The single error type the engine throws. It carries the openCypher TCK classification so that
 * callers (the HTTP layer, the TCK runner) can map it without parsing messages.
 */
export type CypherErrorType =
  | "SyntaxError"
  | "SemanticError"
  | "TypeError"
  | "ArgumentError"
  | "EntityNotFound"
  | "ConstraintVerificationFailed"
  | "ParameterMissing"
  | "ProcedureError"
  | "ArithmeticError"
  | "TimeoutError"
  | "ResourceLimitError"
  | "UnsupportedError";

export type CypherErrorPhase = "compile time" | "runtime";

export interface SourcePosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export class CypherError extends Error {
  override readonly name = "CypherError";

  constructor(
    readonly type: CypherErrorType,
    readonly phase: CypherErrorPhase,
    readonly detail: string | null,
    readonly reason: string,
    readonly position: SourcePosition | null = null,
  ) {
    super(formatMessage(type, detail, reason, position));
  }
}

function formatMessage(type: CypherErrorType, detail: string | null, reason: string, position: SourcePosition | null): string {
  const where = position === null ? "" : ` (line ${position.line}, column ${position.column})`;
  const tag = detail === null ? type : `${type}/${detail}`;
  return `${tag}: ${reason}${where}`;
}

/** Turns a source offset into a 1-based line and column, for messages. */
export function positionAt(source: string, offset: number): SourcePosition {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === "\n") {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
  return { offset, line, column };
}

export function syntaxError(detail: string, reason: string, position: SourcePosition | null = null): CypherError {
  return new CypherError("SyntaxError", "compile time", detail, reason, position);
}

/**
 * Compile-time check failures (unbound variables, misplaced aggregation, ...). The TCK classifies
 * these as SyntaxError with a detail name, not as SemanticError, so we follow it.
 */
export function compileError(detail: string, reason: string, position: SourcePosition | null = null): CypherError {
  return new CypherError("SyntaxError", "compile time", detail, reason, position);
}

export function runtimeTypeError(detail: string, reason: string): CypherError {
  return new CypherError("TypeError", "runtime", detail, reason);
}

export function argumentError(detail: string, reason: string): CypherError {
  return new CypherError("ArgumentError", "runtime", detail, reason);
}

/** A query past its time budget; the caller rolls it back. */
export function timeoutError(): CypherError {
  return new CypherError("TimeoutError", "runtime", "QueryTimeout", "query exceeded its time budget and was rolled back");
}

/** A query that would build or hold more than its size budget allows (list, string, rows, memory). */
export function resourceLimitError(detail: string, reason: string): CypherError {
  return new CypherError("ResourceLimitError", "runtime", detail, reason);
}
