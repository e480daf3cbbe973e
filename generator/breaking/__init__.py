"""``toolgen breaking``: what changed between two versions of the specs, and whether it breaks.

Modules: ``rules`` (the rule records), ``against`` (the old side: a folder or a git revision),
``compare`` (tools, parameters, handlers, context, formats), ``schemadiff`` (one value's JSON
Schema), ``selection`` (family selection over a grid of contexts), ``report`` (exceptions and
output formats) and ``command`` (the CLI entry). See docs/breaking.md.
"""
