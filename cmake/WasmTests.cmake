# GoogleTest for the wasm test builds, compiled from source with Emscripten.
include(GoogleTestFromSource)
