/** Every error laneql throws on purpose: bad options, a closed instance, exhausted wasm memory. */
export class LaneQLError extends Error {
  /** 1-based position in a query text, where the error has one (for the SQL front end to come). */
  line?: number;
  column?: number;

  constructor(message: string, options?: { line?: number; column?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LaneQLError';
    if (options?.line !== undefined) this.line = options.line;
    if (options?.column !== undefined) this.column = options.column;
  }
}
