"""`toolgen lsp`: a language server for spec files (diagnostics, hover, completion, navigation).

Layers, each importing only those above it in this list: ``frontend`` (a Workspace per spec
folder with unsaved buffers, plus validate's output checks), ``text`` (URIs, UTF-16 columns, the
YAML path under the cursor), ``convert`` (toolgen diagnostics as LSP ones), ``session`` (what one
request works with), the features (``navigate``, ``hover``, ``complete``, ``actions``,
``symbols``), and ``server`` (the pygls wiring).
"""
