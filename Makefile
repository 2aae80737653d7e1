# Every target bootstraps .venv on first use, so a machine with only python3 and make suffices.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check browser fmt lint types arch studio bench chaos eval clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m domains.retail.demo

PYTEST := $(BIN)/python -m pytest -q

test: $(STAMP) browser
	$(PYTEST)

# The web inbox's browser test drives Debian's chromium (tests/integration/inbox_web);
# installed here when missing and we are root, else that test skips.
browser:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; } || echo "no chromium: browser tests will skip"

# What CI runs (.ci/run): format, lint (incl. blind excepts, complexity), strict types,
# import contracts, then `make test` itself.
check: $(STAMP) browser
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(MAKE) test

# LangGraph Studio against the support graph of langgraph.json (DATABASE_URL or the embedded server).
studio: $(STAMP)
	LANGGRAPH_DISABLE_FILE_PERSISTENCE=true $(BIN)/langgraph dev

bench: $(STAMP)
	$(BIN)/python -m benchmarks
	$(BIN)/python -m benchmarks.bench_modes

# How well requests are read: the learned reader and the keyword rules on the two
# hand-written held-out splits, the instruction suite and the training corpus.
eval: $(STAMP)
	$(BIN)/python -m domains.retail.intents.evaluate

# The fault and abuse campaign (issue 7 §8): one line per category; non-zero exit on any bad count.
chaos: $(STAMP)
	$(BIN)/python -m chaos

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .rolegraph .pytest_cache .mypy_cache .ruff_cache
