// laneql's public API. Everything else in dist/ is internal.
export {
  LaneQL,
  type CreateOptions,
  type CsvOptions,
  type HitsOptions,
  type TpchOptions,
  type SumOptions,
  type TableInput,
} from './laneql.js';
export { QueryResult } from './result-data.js';
export type { LaneQLWorker } from './worker-proxy.js';
export type { ArrowTableLike } from './arrow.js';
export type {
  CellValue,
  IntervalValue,
  ColumnInput,
  ColumnType,
  DecimalType,
  ElementType,
  ListType,
  ListValue,
  ScalarType,
  ColumnValues,
  ColumnsInput,
  LaneQLInfo,
  LikePrefilterCounts,
  NumericArray,
  ProfileCounters,
  ProfileTrace,
  QueryOptions,
  Row,
  TraceEvent,
  TypedColumn,
} from './types.js';
export { LaneQLError } from './errors.js';
export { detectFlavour, wasmSimdSupported, type Flavour } from './platform.js';
