VENV   ?= .venv
PY     := $(VENV)/bin/python
QRS    := $(VENV)/bin/qrs
STAMP  := $(VENV)/.installed

.PHONY: all install build check test quick clean update-golden schema bench

all: build

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

build: $(STAMP)
	$(QRS) build --all --format pdf --format html
	@$(QRS) doctor --summary

bench: $(STAMP)
	$(PY) bench/bench.py $(BENCH)

check: $(STAMP)
	$(QRS) check

# The test runs keep the modules' compiled bytecode (pytest's rewritten tests too) in the virtualenv, out of the
# tree, even where the environment asks Python to write none: every worker compiled every module again each run.
PYTEST := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache $(PY) -m pytest

test: $(STAMP)
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(PYTEST)

# The fast tier: every test not marked slow (tests/conftest.py SLOW), for the edit-test loop.
quick: $(STAMP)
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(PYTEST) -m "not slow"

clean:
	rm -rf build

schema: $(STAMP)
	$(QRS) schema

update-golden: $(STAMP)
	QRS_UPDATE_GOLDEN=1 $(PY) -m pytest tests/rendering/test_render.py tests/test_visual.py
