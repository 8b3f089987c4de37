"""Shared fixtures: an isolated environment, and one indexed sample store per session.

Ingesting the samples with the real e5 model takes a while on two cores, so the
session builds one store and tests that change it work on a copy.
"""

from __future__ import annotations

import gc
import os
import platform
import re
import shutil
import sqlite3
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest

import rag_core.accounts.store as account_store
from rag_core.settings import ALIASES

# Set at import, not only in the fixtures: session fixtures load the model before any
# function-scoped fixture runs, and nothing may try the network then either.
OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
os.environ.update(OFFLINE)

# The machine's own configuration that must not reach a test: every RAG_* variable (the
# data dir included) and the alias names of settings. CHROMA_HOST/CHROMA_PORT pass through
# on purpose (the `server` tests run against a Chroma server named by them); EMBEDDING_MODEL
# passes only with KEEP_EMBEDDING_MODEL=1, to run the suite on another model.
USER_CONFIG = {name for field, name in ALIASES.items() if not field.startswith("chroma_")} - {"EMBEDDING_MODEL"}


def isolate_environment(patch: pytest.MonkeyPatch) -> None:
    """Offline model hub and no telemetry; no LLM, data dir or RAG_* setting from the machine."""
    for name, value in OFFLINE.items():
        patch.setenv(name, value)
    for name in list(os.environ):
        if name.startswith("RAG_") or name in USER_CONFIG:
            patch.delenv(name)
    if os.environ.get("KEEP_EMBEDDING_MODEL") != "1":
        patch.delenv("EMBEDDING_MODEL", raising=False)


@pytest.fixture(scope="session", autouse=True)
def session_environment():
    """The isolation for the session fixtures (the sample store), which run before any test's own fixtures."""
    with pytest.MonkeyPatch.context() as patch:
        isolate_environment(patch)
        yield


# argon2id as shipped costs about 0.1 s a hash; the suite hashes hundreds of passwords. The same algorithm and
# code at the lowest costs; `test_accounts.py` checks that the shipped costs (SHIPPED_HASH) are the library's.
SHIPPED_HASH = dict(account_store.HASH_PARAMETERS)
TEST_HASH = {"time_cost": 1, "memory_cost": 64, "parallelism": 1}


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashes():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(account_store, "HASH_PARAMETERS", TEST_HASH)
        yield


@pytest.fixture(scope="session", autouse=True)
def long_lived_objects_frozen():
    """The modules, jieba's dictionaries and tagger every test process loads live as long as it does: frozen out of
    the garbage collector (`gc.freeze`), each full collection (the tests that close an assistant call one to let go
    of its files, and Python's own) walks only what the tests made since. Nothing a test makes is frozen."""
    from rag_core.text.tokenizer import jieba_tokenizer, tagged

    jieba_tokenizer()
    tagged("年假")
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture(autouse=True)
def chroma_systems_released():
    """Stop the embedded Chroma systems a test opened, when it ends. chromadb keeps every `PersistentClient`'s system in
    a class-level table until a client is closed, and an assistant never closes its own (one per process in the app):
    over the serial suite's 5,400 tests their open files passed the 20,000 allowed (CI of stop 62: "Too many open
    files"). Systems opened before the test (session and module fixtures, the sample templates) are left alone."""
    from chromadb.api.shared_system_client import SharedSystemClient

    before = set(SharedSystemClient._identifier_to_system)
    yield
    templates = str(fakes_module_template_root() or "\0")
    for identifier in set(SharedSystemClient._identifier_to_system) - before:
        if identifier.startswith(templates):
            continue
        system = SharedSystemClient._identifier_to_system.pop(identifier, None)
        SharedSystemClient._identifier_to_refcount.pop(identifier, None)
        if system is not None:
            try:
                system.stop()
            except Exception:  # noqa: BLE001 - a system a test broke on purpose: its files go with the process
                pass


def fakes_module_template_root() -> Path | None:
    """Where the sample templates live (`fakes.TEMPLATE_ROOT`), whichever name tests imported fakes under."""
    for name in ("fakes", "tests.fakes"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "TEMPLATE_ROOT", None) is not None:
            return module.TEMPLATE_ROOT
    return None


@pytest.fixture(scope="session", autouse=True)
def component_scan_once():
    """Every `AppTest` scans all installed packages' metadata for Streamlit components (0.2 s each; 180 page tests
    made it a quarter of the fast tier's time). The installed packages do not change during a run, so the scan runs
    once per process and its result is reused; the pages run unchanged."""
    from streamlit.components.v2 import manifest_scanner

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", cache(manifest_scanner.scan_component_manifests))
        yield


@pytest.fixture(scope="session", autouse=True)
def sample_templates(tmp_path_factory):
    """Where `fakes.fake_assistant_with_samples` keeps the samples this process indexed once (with the fake embedder).

    Test modules import tests/fakes.py as `fakes` or as `tests.fakes`, two modules: both get the same folder and
    the same table of templates, so the samples are indexed once, whichever name a test imported."""
    root, templates = tmp_path_factory.mktemp("sample_templates"), {}
    for name in ("fakes", "tests.fakes"):
        if (module := sys.modules.get(name)) is not None:
            module.TEMPLATE_ROOT, module.TEMPLATES = root, templates


@pytest.fixture(autouse=True)
def env_setup(monkeypatch):
    """Each test starts isolated, whatever an earlier test or `.env` load left; its own changes are undone after it."""
    isolate_environment(monkeypatch)


ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
EVAL = ROOT / "tests" / "data" / "eval.jsonl"


def open_assistant(data_dir: Path, **overrides):
    from rag_core.assistant import Assistant

    return Assistant.open(data_dir=data_dir, env_file=None, **overrides)


@pytest.fixture(scope="session")
def sample_store(tmp_path_factory) -> Path:
    """A data dir with the eight sample policies indexed (read-only for tests)."""
    path = tmp_path_factory.mktemp("sample_store")
    a = open_assistant(path)
    reports = a.ensure_samples()
    assert reports and all(r.ok for r in reports), [r.error for r in reports]
    a.catalog.close()
    del a
    return path


# What people did with a store rather than what it indexes: a copy starts without them, so a test
# never sees the questions, conversations or memories that tests on the shared store left behind.
USE_RECORDS = ("insights.sqlite3", "conversations.sqlite3", "memory.sqlite3", "accounts.sqlite3", "audit.sqlite3")


def copy_store(src: Path, dest: Path) -> Path:
    """Copy a data dir's index as a new store with its own Chroma collection (embedded or server)."""
    shutil.copytree(src, dest)
    for name in USE_RECORDS:
        for suffix in ("", "-wal", "-shm"):
            (dest / f"{name}{suffix}").unlink(missing_ok=True)
    # the collection is rebuilt from the copied embedding cache on first open
    with sqlite3.connect(dest / "catalog.sqlite3") as db:
        db.execute("DELETE FROM meta WHERE key='store_id'")
    return dest


@pytest.fixture()
def store_copy(sample_store, tmp_path) -> Path:
    """A private copy of the sample store that a test may change."""
    return copy_store(sample_store, tmp_path / "store")


@pytest.fixture(scope="session")
def shared_assistant(sample_store):
    """One read-only assistant over the sample store."""
    return open_assistant(sample_store)



# Test tiers. `scripts/test.sh` runs every test; `scripts/test.sh --fast` runs `pytest -m "not slow and not page"`
# (and `--pages` the page tests that are not slow, `PAGE_SIGNS` below):
# the pure-logic and fake-backed tests (tests/fakes.py: bigram embedder, queued LLM; SQLite and
# embedded Chroma are allowed). A test is `slow` when it loads a real model (e5, USE, OCR, a
# sentence-transformers model), starts a server or a browser, or spawns a process. It is marked here:
# - by its markers: `integration` (real e5 and Chroma), `browser` and `server` tests are slow too;
# - by the session fixtures above, which index the samples with the real e5 model;
# - by module or by test, for the tests that do one of those things without either.
SLOW_MARKERS = frozenset({"integration", "browser", "server"})
# `server`: a loopback OpenAI-compatible server on a thread (test_llm_fix51.py and the tests reusing it): a server starts
SLOW_FIXTURES = frozenset({"sample_store", "store_copy", "shared_assistant", "server"})
SLOW_MODULES = frozenset({
    "test_fix52q1_keywords_when_server_down.py",  # `chroma run` on loopback
    "test_fix52q1_server_down_errors.py",  # `chroma run` on loopback
    "test_fix52q3_doctor_server_live.py",  # `chroma run` on loopback
    "test_real_llm_server.py",  # llama.cpp's server and a 135M model
    "test_embedding.py",  # e5, USE and a sentence-transformers model
    "test_ocr.py",  # RapidOCR's models
    "test_memory_recall.py",  # memory_support: the real e5 embedder
    "test_memory_lifecycle.py",
    "test_memory_cli.py",
    "test_mem_fixes_slots.py",  # memory_support.make_store: the real e5 embedder
    "test_mem_fixes_recall.py",
    # child processes: the Chroma probe, CLI commands, read-only mounts, killed writers
    "test_vector_probe.py",
    "test_s50m_restore_open_lock.py",
    "test_s50l_interrupted_journal.py",
})
SLOW_TESTS = frozenset({  # module::function (every parameter of it)
    # a second process adds a standard answer beside a running assistant
    "test_fix53e_standard_index.py::test_a_standard_answer_added_by_another_process_never_breaks_the_running_app",
    # child processes (a CLI command, a read-only bind mount, a save as another user)
    "test_settings_fix51b_unreadable.py::test_a_save_as_another_user_over_a_root_only_file_keeps_it_aside",
    "test_fix52n1a_busy_actions.py::test_the_cli_says_busy_in_one_line",
    "test_fix52l2_restore_accounts.py::test_cli_restore_refuses_a_manifest_that_leaves_out_the_account_files",
    "test_s50m_doctor_settings_env.py::test_cli_doctor_with_the_environment_says_ok",
    "test_s50m_audit_row_chinese.py::test_cli_backup_of_a_read_only_data_dir_says_it_in_chinese",
    "test_s50l_unmerged_wal.py::test_doctor_on_a_live_copy_on_a_read_only_mount_advises_no_deletion",
    "test_s50l_unmerged_wal.py::test_backup_of_a_live_copy_on_a_read_only_mount_is_refused",
    "test_s50e_restore_lock.py::test_the_app_after_a_restore_under_it_says_restart",
    "test_s50e_restore_lock.py::test_cli_restore_is_refused_while_the_app_holds_the_writer_lock",
    "test_s50e_read_only.py::test_the_app_on_a_read_only_data_dir_advises_no_deletion",
    "test_s50e_read_only.py::test_restore_from_a_backup_on_read_only_media",
    "test_s50e_read_only.py::test_doctor_on_a_read_only_data_dir_finds_nothing_damaged",
    "test_s50e_read_only.py::test_backup_from_a_read_only_data_dir",
    "test_s50e_doctor_settings.py::test_cli_doctor_exits_1_on_a_damaged_settings_file",
    "test_s50d_settings_limits.py::test_the_command_line_says_which_variable_is_out_of_range",
    # memory_support.make_store: the real e5 embedder
    "test_memory_restatements.py::test_distinct_facts_the_embedding_blurs_are_both_kept",
    "test_memory_restatements.py::test_a_restated_fact_is_fresh_again_and_a_recall_is_not_a_restatement",
    "test_memory_restatements.py::test_the_acknowledgement_repeats_what_was_said",
    "test_accounts.py::test_serving_beyond_localhost_without_accounts_is_refused_with_the_way_out",  # processes
    "test_concurrent_ingest.py::test_two_processes_ingesting_one_file_leave_one_current_version",
    "test_second_model.py::test_load_embedder_passes_the_thread_count",  # USE
    "test_parsing.py::test_pdf_without_text_layer",  # OCR of image-only pages
    "test_parsing.py::test_pdf_chinese_headings_carry_across_pages",
    # an OpenAI-compatible stub server on loopback (tests/openai_stub_server.py)
    "test_citations.py::test_eval_counts_unfaithful_answers_through_a_loopback_server",
    "test_followups.py::test_llm_rewrite_through_the_openai_compatible_stub",
    "test_llm.py::test_complete_returns_reply",
    "test_llm.py::test_request_carries_model_temperature_prompt_and_key",
    "test_llm.py::test_a_short_job_bounds_the_reply_on_the_wire",
    "test_llm.py::test_optional_system_message_is_sent_first",
    "test_llm.py::test_stream_yields_several_deltas_joining_to_reply",
    "test_llm.py::test_custom_reply_and_models_endpoint",
    "test_llm.py::test_401_raises_llm_error_without_key",
    "test_llm.py::test_timeout_raises_llm_error",
    "test_llm.py::test_make_llm_uses_settings",
    "test_llm.py::test_stream_timeout_raises_llm_error",
})


# Test stores go to RAM when the machine has a roomy tmpfs (/dev/shm): SQLite commits and Chroma writes then cost
# no fsync, and a sample store builds in about 0.35 s instead of 0.55 s (most tests build one). A container's
# small /dev/shm (64 MB by default) is not used; HR_TESTS_TMPFS=0, or an explicit --basetemp, keeps pytest's own.
TMPFS = Path("/dev/shm")
TMPFS_FREE_BYTES = 4 << 30  # a passing test's files go at its teardown (pyproject: tmp_path_retention_policy)


def _roomy_tmpfs() -> bool:
    try:
        stats = os.statvfs(TMPFS)
    except OSError:
        return False
    return os.access(TMPFS, os.W_OK) and stats.f_bavail * stats.f_frsize >= TMPFS_FREE_BYTES


def pytest_configure(config):
    if "not slow" in (config.option.markexpr or ""):  # the fast tier: property tests draw fewer examples (budget.py)
        os.environ["HR_TESTS_TIER"] = "fast"
    if (config.option.basetemp is None and not hasattr(config, "workerinput")
            and os.environ.get("HR_TESTS_TMPFS", "1") != "0" and _roomy_tmpfs()):
        config.option.basetemp = config.stash[_TMPFS_BASE] = tempfile.mkdtemp(prefix="hr-tests-", dir=TMPFS)


def pytest_unconfigure(config):
    if base := config.stash.get(_TMPFS_BASE, None):  # RAM is given back: a failed test's files go with it
        shutil.rmtree(base, ignore_errors=True)


_TMPFS_BASE = pytest.StashKey[str]()


# Page tests drive a page through Streamlit's `AppTest`, themselves or through a helper module of tests/ they import
# (tests/app_support.py, another test module's `open_page`): about a third of the fast tier's time in a tenth of its
# files. They are `page`: `scripts/test.sh --fast` leaves them to `scripts/test.sh --pages` (and to the whole suite),
# so a change to the engine is checked in about a minute. Read from the code (a docstring naming AppTest is no sign).
TESTS_DIR = Path(__file__).resolve().parent
_DRIVES_PAGES = re.compile(r"AppTest\.from_|^[ \t]*(?:from|import)[ \t]+streamlit\.testing", re.MULTILINE)
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([^)\n]*)|import[ \t]+([^\n#]+))", re.MULTILINE)


def _local_imports(text: str) -> set[str]:
    """The module names an import line may name in tests/: `from X import`, `from tests import X, Y`, `import X, Y as Z`."""
    names: set[str] = set()
    for source, imported, plain in _IMPORT_LINE.findall(text):
        if plain:
            names |= {part.split(" as ")[0].strip().removeprefix("tests.") for part in plain.split(",")}
        elif source == "tests":
            names |= {part.split(" as ")[0].strip() for part in imported.split(",")}
        else:
            names.add(source.removeprefix("tests."))
    return names


@cache
def drives_pages(path: Path, _seen: frozenset[Path] = frozenset()) -> bool:
    """The module (or a module of tests/ it imports, however deep) builds an `AppTest`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return False
    if _DRIVES_PAGES.search(text):
        return True
    names = _local_imports(text)
    return any(drives_pages(helper, _seen | {path}) for name in names
               if (helper := TESTS_DIR / f"{name}.py") not in _seen | {path} and helper.exists())


def pytest_collection_modifyitems(config, items):
    for item in items:
        if drives_pages(item.path):
            item.add_marker(pytest.mark.page)
        if (
            SLOW_MARKERS.intersection(mark.name for mark in item.iter_markers())
            or SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))
            or item.path.name in SLOW_MODULES
            or f"{item.path.name}::{getattr(item, 'originalname', item.name)}" in SLOW_TESTS
        ):
            item.add_marker(pytest.mark.slow)


def real_models_loaded() -> tuple[int, bool]:
    """(embedding models loaded so far in this process, OCR engine loaded)."""
    from rag_core.documents import ocr
    from rag_core.search.embedding import MODEL_LOADS

    return sum(MODEL_LOADS.values()), getattr(ocr, "_engine", None) is not None


# Child processes started in this process (Python's audit events): the fast tier starts none.
CHILD_EVENTS = frozenset({"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system"})
children_started = [0]


def _count_children(event: str, _args) -> None:
    if event in CHILD_EVENTS:
        children_started[0] += 1


sys.addaudithook(_count_children)
# openai's client names the machine in its headers; Python learns the processor by running `uname -p` once a
# process, so whichever fast test first built a client counted as starting a process. Asked here, before counting.
platform.uname().processor  # noqa: B018


def no_real_model_in_the_fast_tier(item):
    """When `slow` tests are deselected, a test that loads a real model or starts a process fails and says to
    mark it."""
    if "not slow" not in (item.config.getoption("markexpr") or ""):
        return (yield)
    before, children = real_models_loaded(), children_started[0]
    pages_before = "streamlit.testing.v1" in sys.modules
    result = yield
    if "not page" in item.config.getoption("markexpr") and not pages_before and "streamlit.testing.v1" in sys.modules:
        pytest.fail(f"{item.nodeid} drove a page (AppTest) in the fast tier: its module is not marked page "
                    "(tests/conftest.py `drives_pages` looks for the AppTest builder in it and the tests/ modules it imports)",
                    pytrace=False)
    if real_models_loaded() != before:
        pytest.fail(
            f"{item.nodeid} loaded a real model (embedding or OCR) in the fast tier: "
            "add it to SLOW_MODULES or SLOW_TESTS in tests/conftest.py",
            pytrace=False,
        )
    if children_started[0] != children:
        pytest.fail(
            f"{item.nodeid} started a child process in the fast tier: mark it slow "
            "(pytestmark = pytest.mark.slow, or SLOW_MODULES / SLOW_TESTS in tests/conftest.py)",
            pytrace=False,
        )
    return result


pytest_runtest_setup = pytest.hookimpl(wrapper=True)(no_real_model_in_the_fast_tier)
pytest_runtest_call = pytest.hookimpl(wrapper=True)(no_real_model_in_the_fast_tier)


@pytest.fixture()
def clean_env(monkeypatch):
    """No RAG_* or alias variable from the machine leaks into a settings test (the settings tests' one copy)."""
    from rag_core.settings import ALIASES

    for var in list(os.environ):
        if var.startswith("RAG_") or var in ALIASES.values():
            monkeypatch.delenv(var)
    return monkeypatch
