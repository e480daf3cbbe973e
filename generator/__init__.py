"""toolgen: turn declarative YAML tool specs into provider schemas, XML prompts and dispatch code."""

__version__ = "0.1.0"
