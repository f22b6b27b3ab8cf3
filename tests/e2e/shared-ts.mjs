// tests/js/data.ts and tests/js/reference.ts, transpiled to JavaScript: the browser pages and the
// Node side of the browser test generate their data and reference sums from this one source.
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

const SHARED = new Set(['data', 'reference']);

/** The JavaScript of tests/js/<name>.ts, or null when <name> is not a shared module. */
export async function sharedModuleSource(name) {
  if (!SHARED.has(name)) return null;
  const source = await readFile(new URL(`../js/${name}.ts`, import.meta.url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
    fileName: `${name}.ts`,
  });
  return outputText;
}

/** Imports a shared module into Node (they have no imports, so a data: URL will do). */
export async function importSharedModule(name) {
  const source = await sharedModuleSource(name);
  if (source === null) throw new Error(`no shared test module '${name}'`);
  return import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
}
