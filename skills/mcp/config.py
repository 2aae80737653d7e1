"""`mcp_servers.yaml`: the MCP servers a catalog's skills may name, configured once.

```yaml
servers:
  tickets:
    transport: streamable_http
    url: ${ROLEGRAPH_MCP_TICKETS_URL}
    headers: {Authorization: "Bearer ${TICKETS_TOKEN}"}   # optional
  files:
    transport: stdio
    command: ${ROLEGRAPH_MCP_PYTHON}
    args: [-m, files_server]
    env: {FILES_ROOT: /srv/files}                          # optional
    cwd: .                                                 # optional, relative to the catalog
```

Every string value may name environment variables as `${NAME}` (`$$` is a
literal `$`); a variable that is not set is a load error naming it, so a
deployment cannot start against a half-configured server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from string import Template
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skills import yaml_files
from skills.errors import SkillLoadError

SERVERS_FILE = "mcp_servers.yaml"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class HttpServer(_Frozen):
    """A server reached over MCP's streamable HTTP transport."""

    transport: Literal["streamable_http"]
    url: str = Field(pattern=r"^https?://")
    headers: dict[str, str] = Field(default_factory=dict)

    @property
    def where(self) -> str:
        return self.url


class StdioServer(_Frozen):
    """A server the runtime starts as a subprocess and talks to over stdin/stdout."""

    transport: Literal["stdio"]
    command: str = Field(min_length=1)
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict)
    cwd: Path | None = None

    @property
    def where(self) -> str:
        return " ".join((self.command, *self.args))


ServerConfig = Annotated[HttpServer | StdioServer, Field(discriminator="transport")]


class ServersFile(_Frozen):
    servers: dict[str, ServerConfig]


def load_servers(
    catalog: Path, environ: Mapping[str, str] = os.environ
) -> dict[str, HttpServer | StdioServer]:
    """The catalog's servers by name; none when it has no `mcp_servers.yaml`."""
    path = catalog / SERVERS_FILE
    if not path.is_file():
        return {}
    try:
        raw = yaml_files.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise _error(f"is not valid YAML ({exc})") from exc
    expanded = _expand(raw, environ, where="")
    try:
        servers = ServersFile.model_validate(expanded).servers
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"]) or "(root)"
        raise _error(f"field '{field}': {error['msg']}") from exc
    return {name: _anchored(server, catalog) for name, server in servers.items()}


def _expand(value: Any, environ: Mapping[str, str], where: str) -> Any:
    """`${NAME}` replaced in every string of the parsed file."""
    if isinstance(value, dict):
        return {k: _expand(v, environ, f"{where}.{k}".lstrip(".")) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, environ, f"{where}[{i}]") for i, v in enumerate(value)]
    if not isinstance(value, str):
        return value
    try:
        return Template(value).substitute(environ)
    except KeyError as exc:
        raise _error(f"{where} uses ${{{exc.args[0]}}}, which is not set; export it") from None
    except ValueError as exc:
        raise _error(
            f"{where} has a malformed ${{...}} ({exc}); write $$ for a literal $"
        ) from None


def _anchored(server: HttpServer | StdioServer, catalog: Path) -> HttpServer | StdioServer:
    """A stdio server's relative `cwd` is relative to the catalog, not to wherever we run."""
    if isinstance(server, StdioServer) and server.cwd is not None and not server.cwd.is_absolute():
        return server.model_copy(update={"cwd": (catalog / server.cwd).resolve()})
    return server


def _error(problem: str) -> SkillLoadError:
    return SkillLoadError(f"{SERVERS_FILE}: {problem}")
