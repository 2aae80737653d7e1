"""YAML for the files read at every process start (skill catalog, roles, the
permission matrix, knowledge), parsed by libyaml when PyYAML has it."""

from __future__ import annotations

from typing import Any

import yaml

# libyaml's parser with PyYAML's safe constructors: the same values, about 7x
# faster, which is a quarter second of every `rolegraph run`.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """`yaml.safe_load`; raises `yaml.YAMLError` as it does."""
    return yaml.load(text, Loader=_LOADER)
