// Types for the Emscripten glue files that `make build-wasm` writes to dist/wasm/ (they are not
// in src/, so TypeScript sees them only through these declarations).
declare module '*/laneql-simd128.js' {
  const createLaneQLModule: import('./module.js').ModuleFactory;
  export default createLaneQLModule;
}
declare module '*/laneql-scalar.js' {
  const createLaneQLModule: import('./module.js').ModuleFactory;
  export default createLaneQLModule;
}
declare module '*/laneql-simd128-mt-web.js' {
  const createLaneQLModule: import('./module.js').ModuleFactory;
  export default createLaneQLModule;
}
