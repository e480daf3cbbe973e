"""`toolgen lsp`: a language server for spec files (diagnostics, hover, completion, navigation).

Layers, each importing only those above it in this list: ``frontend`` (checks a spec folder
with unsaved buffers), ``text`` (positions, URIs, the YAML path under the cursor), the features
(``convert``, ``hover``, ``complete``, ``navigate``, ``actions``), and ``server`` (the wiring).
"""
