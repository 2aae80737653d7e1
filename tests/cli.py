"""Run the `rolegraph` CLI in a subprocess, as a user would."""

from __future__ import annotations

import json
import subprocess
import sys


def run_cli(
    env: dict[str, str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rolegraph_cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
    )


# Loaded only by what needs them: training the intent reader (scikit-learn,
# numpy), a model tier (chat models), an OTLP exporter, the web inbox's server,
# the job queue, an MCP server's client.
LAZY = (
    "sklearn",
    "scipy",
    "numpy",
    "joblib",
    "openai",
    "langchain_openai",
    "langchain_core.language_models.chat_models",
    "opentelemetry.exporter",
    "uvicorn",
    "starlette",
    "jinja2",
    "procrastinate",
    "mcp",
)


def modules_after(
    argv: list[str], env: dict[str, str] | None = None
) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules a fresh interpreter holds after `rolegraph ARGV` exits 0, and
    the process (its stdout ends with the command's own output)."""
    script = (
        "import json, sys\n"
        "from rolegraph_cli.main import main\n"
        "try:\n    code = main(json.loads(sys.argv[1]))\n"
        "except SystemExit as e:\n    code = e.code\n"
        "assert code == 0, code\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(argv)],
        capture_output=True, text=True, check=True, env=env, timeout=180,
    )  # fmt: skip
    return set(json.loads(done.stdout.splitlines()[-1])), done


def loaded(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    """The modules of `packages` (or their subpackages) among `modules`."""
    return sorted(m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages))
