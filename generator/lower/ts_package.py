"""The npm package files of the TypeScript output: package.json and the build's tsconfig.

The package holds TypeScript sources (a host may vendor the folder and compile it with its own
flags). What npm installs is built: ``npm pack`` (and ``npm publish``) runs the ``prepack``
script, which writes the ``.d.ts`` declarations with tsc and the JavaScript with esbuild into
``dist/``, the only folder the tarball holds. esbuild bundles the index and each format's entry
module, splitting the code they share into chunks: a handful of files instead of one per source
module, since Node spends about a third of a millisecond on each file it loads (the whole package
imports in about 15 ms instead of 40-90; benchmarks/ts_bundle.py), and every class is still
defined once, so ``instanceof`` holds across entry points. ``toolgen generate`` never needs Node.

ESM only: ``"type": "module"``, and ``exports`` (the index, and each format's entry module:
``<name>/anthropic`` ...) sends both ``import`` and ``require`` to the one ESM build, since Node
20.19+ and 22.12+ load ES modules with ``require()`` and TypeScript's ``module: nodenext`` types
that. One build means one copy of each class (``instanceof`` holds)
whichever way a host loads it; docs/typescript.md gives older CommonJS hosts ``import()``.
``"sideEffects": false``: importing a module does nothing but define names (and check the runtime
version), so a bundler may leave out every module a program does not use.
"""

from __future__ import annotations

import json
from typing import Any

from ..model import Catalog
from ..render import header
from ..runtime.formats import FORMATS

#: The TypeScript that writes ``dist/``'s declarations (the version tests/ts pins, which checks the sources).
TYPESCRIPT_VERSION = "7.0.2"
#: The esbuild that writes ``dist/``'s JavaScript (the version tests/ts pins for benchmarks/ts_bundle.py).
ESBUILD_VERSION = "0.28.2"
#: The compiler flags of the build: strict, and the flags strict hosts add, as the sources are checked.
STRICT_FLAGS = (
    "strict",
    "noUncheckedIndexedAccess",
    "exactOptionalPropertyTypes",
    "noPropertyAccessFromIndexSignature",
    "noImplicitOverride",
)
BUILD_CONFIG = "tsconfig.build.json"  # not tsconfig.json: a host vendoring the folder keeps its own config
DIST = "dist"


def _json(value: Any) -> str:
    """JSON as npm writes it: two-space indent, keys in the order given, a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _entry(module: str) -> dict[str, str]:
    """An export's conditions: "types" first (TypeScript reads the first that matches)."""
    return {"types": f"./{DIST}/{module}.d.ts", "default": f"./{DIST}/{module}.js"}


def package_json(catalog: Catalog) -> str:
    project = catalog.project
    entry = _entry("index")
    # One export per format's entry module (lower/ts.py writes <module>.ts for the formats generated).
    modules = [rec.module for rec in FORMATS.values() if rec.name in project.formats]
    formats = {f"./{module}": _entry(module) for module in modules}
    bundle = " ".join(
        [
            "esbuild",
            *(f"{module}.ts" for module in ["index", *modules]),
            "--bundle --splitting --format=esm --platform=neutral --target=es2022",
            f"--outdir={DIST} --chunk-names=chunks/[name]-[hash] --log-level=warning",
        ]
    )
    return _json(
        {
            "name": project.npm_name,
            "version": project.npm_version,
            # the line every generated file starts with, as JSON holds no comment
            "description": header((project.source,), "").strip(),
            "type": "module",
            "exports": {".": entry, **formats, "./package.json": "./package.json"},
            "main": entry["default"],
            "types": entry["types"],
            "files": [DIST],
            "sideEffects": False,
            "scripts": {"build": f"tsc -p {BUILD_CONFIG} && {bundle}", "prepack": "npm run build"},
            "devDependencies": {"esbuild": ESBUILD_VERSION, "typescript": TYPESCRIPT_VERSION},
        }
    )


def build_config(catalog: Catalog) -> str:
    """The build's tsconfig (tsc reads comments in it: it starts with the generated-file line)."""
    options: dict[str, Any] = {
        "target": "ES2022",
        "lib": ["ES2022"],
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "types": [],
        **dict.fromkeys(STRICT_FLAGS, True),
        "isolatedModules": True,
        "verbatimModuleSyntax": True,
        "declaration": True,
        "emitDeclarationOnly": True,  # the JavaScript is esbuild's (see the module docstring)
        "rootDir": ".",
        "outDir": DIST,
    }
    config = {"compilerOptions": options, "include": ["**/*.ts"], "exclude": [DIST, "node_modules"]}
    return header((catalog.project.source,), "//") + _json(config)


def emit(catalog: Catalog) -> dict[str, str]:
    """package.json and the build config, by file name."""
    return {"package.json": package_json(catalog), BUILD_CONFIG: build_config(catalog)}
