"""Shared fixtures. Tests that need a service fail loudly without it; nothing is skipped."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]


def _shared_dir() -> Path:
    """The seed's shared folder, which is not part of the repository: where
    SEMLOOP_SHARED_DIR says, else beside the clone, else beside the local repository the
    clone was made from (``git clone . "/tmp/fresh copy"``). A folder missing from all three
    fails the tests that read it, loudly."""
    if named := os.environ.get("SEMLOOP_SHARED_DIR"):
        return Path(named)
    beside = ROOT.parent / "shared"
    if beside.is_dir():
        return beside
    origin = subprocess.run(["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"],
                            capture_output=True, text=True, check=False).stdout.strip()
    return Path(origin).resolve().parent / "shared" if origin and Path(origin).is_dir() else beside


SHARED = _shared_dir()
REFERENCE_DATASET = SHARED / "reference" / "semloop-seed-dataset.jsonl"

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")

# The suite gates every landing, so its property tests draw the same examples on every run:
# a failure is then a change in the code, never luck. HYPOTHESIS_PROFILE=explore draws fresh
# examples each run, to hunt for new failures by hand. No deadline: on a shared 2-core
# machine one example can take longer than Hypothesis's 200 ms while other work runs, and
# speed is the benchmarks' business, never a unit test's.
settings.register_profile("suite", derandomize=True, database=None, deadline=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of the PostgreSQL server scripts/test.sh started."""
    url = os.environ.get("SEMLOOP_TEST_POSTGRES_URL")
    if not url:
        pytest.fail("SEMLOOP_TEST_POSTGRES_URL is not set: run the suite with scripts/test.sh")
    return url


@pytest.fixture(scope="session")
def pg_template(postgres_url: str) -> Iterator[object]:
    """A migrated template database; each PostgreSQL test gets a fresh clone of it."""
    from semloop.store.testing import MigratedTemplate

    template = MigratedTemplate(postgres_url)
    yield template
    template.close()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file; each SQLite test gets a fresh copy of it (the migrations
    run once, as for ``pg_template``, not once per test)."""
    from semloop.store import Store

    path = tmp_path_factory.mktemp("template") / "semloop.db"
    with Store(f"sqlite:///{path}"):
        pass  # closing its last connection folds the -wal file into the database file
    return path


def sqlite_copy(template: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh, migrated SQLite database: a copy of ``template`` (its 0600 mode kept)."""
    path = tmp_path_factory.mktemp("db") / "semloop.db"
    shutil.copy(template, path)
    return f"sqlite:///{path}"


_DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@contextlib.contextmanager
def _fresh_database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a fresh, migrated database of the kind ``request.param`` names: a copy of
    the SQLite template, or a clone of the PostgreSQL one."""
    if request.param == "sqlite":
        yield sqlite_copy(request.getfixturevalue("sqlite_template"), tmp_path_factory)
        return
    with request.getfixturevalue("pg_template").database() as url:
        yield url


@pytest.fixture(params=_DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh, migrated database: a SQLite file, then a PostgreSQL database."""
    with _fresh_database(request, tmp_path_factory) as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[object]:
    """A :class:`semloop.store.Store` on each database of ``db_url``."""
    from semloop.store import Store

    with Store(db_url) as opened:
        yield opened


@pytest.fixture(scope="module", params=_DATABASES)
def module_store(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Like ``store``, but one per module and database: only for tests that write nothing
    another test reads (a rejected request, a page served), which then skip a fresh
    database and server each."""
    from semloop.store import Store

    with _fresh_database(request, tmp_path_factory) as url, Store(url) as opened:
        yield opened


@pytest.fixture
def third_party_imports() -> Callable[[str], list[str]]:
    """What importing a module pulls in beyond the standard library and semloop, in a fresh
    interpreter. Only what the import adds counts: the interpreter's own site hooks
    (sitecustomize, setuptools' _distutils_hack) are loaded before it and are not ours."""

    def imports(module: str) -> list[str]:
        code = (
            "import json, sys; before = set(sys.modules); import " + module + "; "
            "print(json.dumps(sorted({m.split('.')[0] for m in set(sys.modules) - before}"
            " - set(sys.stdlib_module_names) - {'semloop'})))"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        names: list[str] = json.loads(out.stdout)
        return names

    return imports
