"""`mcp_servers.yaml`: environment variables, transports and paths, read as declared."""

from __future__ import annotations

from pathlib import Path

import pytest

from skills.errors import SkillLoadError
from skills.mcp.config import HttpServer, StdioServer, load_servers


def _write(folder: Path, text: str) -> Path:
    (folder / "mcp_servers.yaml").write_text(text)
    return folder


def test_variables_are_expanded_and_a_relative_cwd_is_the_catalogs(tmp_path: Path) -> None:
    catalog = _write(
        tmp_path,
        "servers:\n"
        "  web: {transport: streamable_http, url: '${BASE}/mcp',"
        " headers: {Authorization: 'Bearer ${TOKEN}', X-Cost: '$$5'}}\n"
        "  local: {transport: stdio, command: '${PY}', args: [-m, srv], cwd: tools}\n",
    )
    env = {"BASE": "http://127.0.0.1:9", "TOKEN": "s3cret", "PY": "/usr/bin/python3"}
    servers = load_servers(catalog, env)
    assert servers["web"] == HttpServer(
        transport="streamable_http",
        url="http://127.0.0.1:9/mcp",
        headers={"Authorization": "Bearer s3cret", "X-Cost": "$5"},
    )
    local = servers["local"]
    assert isinstance(local, StdioServer) and local.command == "/usr/bin/python3"
    assert local.cwd == (tmp_path / "tools").resolve() and local.args == ("-m", "srv")


def test_no_file_means_no_servers(tmp_path: Path) -> None:
    assert load_servers(tmp_path, {}) == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "servers:\n  a: {transport: carrier_pigeon, url: x}\n",
            "mcp_servers.yaml: field 'servers.a': Input tag 'carrier_pigeon' found using"
            " 'transport' does not match any of the expected tags: 'streamable_http', 'stdio'",
        ),
        (
            "servers:\n  a: {transport: streamable_http, url: 'ftp://x'}\n",
            "mcp_servers.yaml: field 'servers.a.streamable_http.url': String should match"
            " pattern '^https?://'",
        ),
        (
            "servers:\n  a: {transport: stdio, command: 'run ${}'}\n",
            "mcp_servers.yaml: servers.a.command has a malformed ${...}",
        ),
    ],
)
def test_a_malformed_file_is_one_line_naming_the_field(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(SkillLoadError) as failed:
        load_servers(_write(tmp_path, text), {})
    assert str(failed.value).startswith(message) and "\n" not in str(failed.value)
