"""The context the reference (golden) structures were taken in; see the golden file's "$about".

Kept apart from conftest so that scripts (tests/behaviour.py) can use it without the test setup.
"""

from __future__ import annotations

GOLDEN_FIELDS = {
    "provider_id": "cline",
    "model_id": "openai/gpt-5",
    "cwd": "/repo",
    "supports_browser_use": True,
    "browser_viewport_width": 900,
    "browser_viewport_height": 600,
    "enable_native_tool_calls": True,
    "cline_web_tools_enabled": True,
    "subagents_enabled": False,
    "focus_chain_enabled": True,
    "yolo_mode": False,
    "is_cli": False,
    "has_mcp_hub": True,
    "skills": ("one-skill",),
}
