"""Stage 3b: cross-file checks and construction of the typed model.

Runs only on files that passed the meta-schema, so shapes can be trusted; what is checked here
is what a schema cannot see: references between files, names, types against values.

Modules, by concern: ``common`` (the declared names every check reads, value tests),
``predicates`` (selection rules and conditions), ``text`` (placeholders, conditional text, usage
examples), ``schemas`` (parameters and their JSON-Schema keywords), ``project`` (toolgen.yaml),
``tools`` (tool files, handlers, variants) and ``build`` (family files, and the Catalog).
"""

from __future__ import annotations

from .build import build_catalog
from .common import member_name
from .project import CONTEXT_NAME_RE, RESERVED_CONTEXT_NAMES, RUNTIME_FIELDS

__all__ = ["CONTEXT_NAME_RE", "RESERVED_CONTEXT_NAMES", "RUNTIME_FIELDS", "build_catalog", "member_name"]
