# Two commands for a newcomer: `make demo` and `make test`. Both create the virtual
# environment on first use and reinstall when pyproject.toml changes.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
OUT    ?= out
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench workbook system-deps clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

## demo: install, then run the incident workbook on the bundled SmolLM3 incident
demo: $(STAMP)
	$(BIN)/incidentbook validate data/library
	$(BIN)/incidentbook library build data/library -o $(OUT)/library
	$(BIN)/incidentbook run data/incidents/smollm3-storage --out $(OUT)/smollm3-storage
	@echo "Report:        $(OUT)/smollm3-storage/report.html"
	@echo "Case record:   $(OUT)/smollm3-storage/case.json"
	@echo "Library site:  $(OUT)/library/index.html"

## test: install, then run the whole suite (lint included)
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto --dist loadscope

## bench: the benchmarks, each printing a table (medians, ratios from one run), then
## the table of issue 14's goals (each goal's figure, met or not)
bench: $(STAMP)
	$(BIN)/python -m bench.goals --reset
	$(BIN)/python -m bench.metrics_load
	$(BIN)/python -m bench.nab
	$(BIN)/python -m bench.scenarios
	$(BIN)/python -m bench.loghub
	$(BIN)/python -m bench.log_corpus
	$(BIN)/python -m bench.log_speed
	$(BIN)/python -m bench.workbook
	$(BIN)/python -m bench.prometheus_pull
	$(BIN)/python -m bench.trainer_logs
	$(BIN)/python -m bench.goals

## workbook: re-execute workbooks/incident.ipynb in place (after changing what it shows)
workbook: $(STAMP)
	$(BIN)/python scripts/refresh-workbook.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check lib tests

## system-deps: the Debian packages some tests need (run as root; CI does this)
system-deps:
	bash scripts/system-deps.sh

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache .ruff_cache
