/**
 * The toolgen TypeScript runtime: the code every generated TS package shares, whatever its specs.
 *
 * Mirrors generator/runtime/__init__.py. Plain ES2022, relative imports only, no npm package and no
 * Node-only API: the generator copies this folder unchanged into `_runtime/` of every generated
 * package, whose own modules hold only data. Each generated module calls `checkVersion` when it is
 * loaded, so a package mixing files of two toolgen versions fails at once with a message saying
 * what to do.
 */

/** Bumped with the Python runtime's RUNTIME_VERSION: both runtimes read the same data. */
export const RUNTIME_VERSION = 9;

/** Throw unless `module` was generated for this runtime version. */
export function checkVersion(expected: number, module: string): void {
  if (expected !== RUNTIME_VERSION) {
    throw new Error(
      `${module} was generated for toolgen runtime version ${expected}, but the ` +
        `_runtime folder next to it is version ${RUNTIME_VERSION}: the package mixes ` +
        "files from two toolgen versions. Regenerate the whole package with one " +
        "toolgen (toolgen generate); do not copy single files.",
    );
  }
}
