// laneql's public API. Everything else in dist/ is internal.
export { LaneQL, type CreateOptions, type SumOptions } from './laneql.js';
export type { LaneQLInfo } from './bindings.js';
export { LaneQLError } from './errors.js';
export { detectFlavour, wasmSimdSupported, type Flavour } from './platform.js';
