// The module Worker that runs a case off the main thread (where the threaded flavour belongs).
import { compute } from './compute.js';

self.onmessage = async (event) => {
  try {
    self.postMessage(await compute(event.data));
  } catch (error) {
    self.postMessage({ error: { name: error?.name, message: String(error?.message ?? error) } });
  }
};
