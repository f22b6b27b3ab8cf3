/** Every error laneql throws on purpose: bad options, a closed instance, exhausted wasm memory. */
export class LaneQLError extends Error {
  /** 1-based position in the query (or CSV) text, where the error has one. */
  line?: number;
  column?: number;

  constructor(message: string, options?: { line?: number | undefined; column?: number | undefined; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LaneQLError';
    if (options?.line !== undefined) this.line = options.line;
    if (options?.column !== undefined) this.column = options.column;
  }
}
