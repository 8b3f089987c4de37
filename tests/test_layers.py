"""The layout is the architecture: a lower stage never imports a higher one.

Reads every import statement (absolute and relative, top-level and inside
functions) with `ast`, so a lazy import cannot slip past.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "rag_core"
FOUNDATION = {"types", "errors", "settings"}

# What each stage may import besides itself and the foundation modules. `storage` (SQLite access, store files, backups)
# imports nothing but the foundation, so every stage may stand on it.
ALLOWED: dict[str, set[str]] = {
    "text": set(),
    "storage": set(),
    "documents": {"text", "storage"},
    "memory": {"text", "storage"},
    "search": {"storage", "text", "documents"},
    "answer": {"text", "search"},
    "conversations": {"text", "storage"},
    "evaluation": {"text", "documents", "search", "answer"},
    "accounts": {"storage"},
    "insights": {"storage", "text", "documents", "search"},
    "facade": {"storage", "text", "documents", "search", "answer", "memory", "evaluation", "conversations", "accounts", "insights"},
    "cli": {"text", "documents", "search", "answer", "memory", "evaluation", "facade", "assistant"},
    "assistant": {"storage", "text", "documents", "search", "answer", "memory", "evaluation", "conversations", "facade", "accounts", "insights"},
}
# What the pages and the UI helpers may import from the engine: the facade and its records.
PUBLIC = {"rag_core", "rag_core.assistant", "rag_core.types", "rag_core.settings", "rag_core.errors"}


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every rag_core module `path` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = path.relative_to(ROOT).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            # `from . import db` / `from rag_core import x` name modules too
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {m for m in found if m == "rag_core" or m.startswith("rag_core.")}


def stage_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def core_modules() -> list[Path]:
    return sorted(p for p in CORE.rglob("*.py") if "__pycache__" not in p.parts)


def test_rag_core_top_level_holds_only_the_public_surface():
    top = {p.stem for p in CORE.glob("*.py")}
    assert top == {"__init__", "__main__", "assistant", "settings", "types", "errors"}


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(CORE)))
def test_no_module_imports_a_higher_stage(path: Path):
    rel = path.relative_to(CORE)
    stage = rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 else rel.stem
    if stage in FOUNDATION or stage in {"__init__", "__main__"}:
        allowed = FOUNDATION | ({"assistant", "cli"} if stage in {"__init__", "__main__"} else set())
    else:
        allowed = ALLOWED[stage] | FOUNDATION | {stage}
    wrong = {m for m in imported_modules(path) if (target := stage_of(m)) is not None and target not in allowed}
    assert not wrong, f"{rel} imports {sorted(wrong)}; {stage} may import only {sorted(allowed)}"


@pytest.mark.parametrize(
    "path", sorted([*(ROOT / "pages").glob("*.py"), *(ROOT / "ui").glob("*.py"), ROOT / "app.py"]),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_pages_and_ui_use_only_the_facade_and_records(path: Path):
    deep = {m for m in imported_modules(path) if m not in PUBLIC and not _is_public_name(m)}
    assert not deep, f"{path.relative_to(ROOT)} reaches past the facade: {sorted(deep)}"


def _is_public_name(module: str) -> bool:
    """`from rag_core import Assistant` shows up as rag_core.Assistant: a name, not a module."""
    head, _, name = module.rpartition(".")
    return head in PUBLIC and name[:1].isupper()


def test_no_module_in_rag_core_is_over_400_lines():
    long = {str(p.relative_to(CORE)): n for p in core_modules() if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long, long


def test_the_checker_sees_a_violation(tmp_path: Path, monkeypatch):
    """The import reader catches relative and lazy imports (so the tests above can fail)."""
    fake = ROOT / "rag_core" / "documents" / "_layer_probe.py"
    fake.write_text("def f():\n    from ..search import fusion\n    return fusion\n", encoding="utf-8")
    try:
        assert "rag_core.search" in imported_modules(fake) or "rag_core.search.fusion" in imported_modules(fake)
        with pytest.raises(AssertionError):
            test_no_module_imports_a_higher_stage(fake)
    finally:
        fake.unlink()


# -- the facade's parts ------------------------------------------------------------------------------------------
def facade_classes(sources: list[str]) -> dict[str, tuple[list[str], set[str], list[str]]]:
    """Each class in `sources`: its base names, the members it implements, the private methods it calls on self."""
    found = {}
    for text in sources:
        for node in ast.parse(text).body:
            if not isinstance(node, ast.ClassDef):
                continue
            implemented = {f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
            implemented |= {t.id for f in node.body if isinstance(f, ast.Assign) for t in f.targets if isinstance(t, ast.Name)}
            implemented |= {f.target.id for f in node.body
                            if isinstance(f, ast.AnnAssign) and f.value is not None and isinstance(f.target, ast.Name)}
            called = [c.func.attr for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                      and isinstance(c.func.value, ast.Name) and c.func.value.id == "self"
                      and c.func.attr.startswith("_") and not c.func.attr.startswith("__")]
            found[node.name] = ([b.id for b in node.bases if isinstance(b, ast.Name)], implemented, called)
    return found


def borrowed_private_calls(sources: list[str]) -> list[str]:
    """`Class._method` wherever a class calls a private method that neither it nor a class it inherits implements:
    a part relying on another part's private method, found only through the order `Assistant` lists the mixins in."""
    classes = facade_classes(sources)

    def lineage(name: str, seen: set[str]) -> set[str]:
        if name in classes and name not in seen:
            seen.add(name)
            for base in classes[name][0]:
                lineage(base, seen)
        return seen

    owners: dict[str, set[str]] = {}
    for name, (_, implemented, _) in classes.items():
        for member in implemented:
            owners.setdefault(member, set()).add(name)
    return sorted({f"{name}.{method}" for name, (_, _, called) in classes.items()
                   for method in called if method in owners and not owners[method] & lineage(name, set())})


def test_no_facade_part_calls_another_parts_private_method():
    paths = sorted((CORE / "facade").glob("*.py")) + [CORE / "assistant.py"]
    assert borrowed_private_calls([p.read_text(encoding="utf-8") for p in paths]) == []


def test_the_part_checker_sees_a_borrowed_call():
    core = "class Core:\n    def _acting(self):\n        pass\n"
    owner = "class Review(Core):\n    def _hold(self):\n        pass\n"
    borrower = "class Documents(Core):\n    def delete(self):\n        self._acting()\n        self._hold()\n"
    assert borrowed_private_calls([core, owner, borrower]) == ["Documents._hold"]
    inheriting = borrower.replace("class Documents(Core)", "class Documents(Review)")
    assert borrowed_private_calls([core, owner, inheriting]) == []


def test_page_tests_are_marked_page_through_their_helpers() -> None:
    """Review 366 #7: modules driving pages through another test module's helper ran in the fast tier."""
    from conftest import TESTS_DIR, drives_pages

    for name in ("test_audit_action_names.py", "test_s50b_chat_tabs.py", "test_upload_fixes_stop.py"):
        assert drives_pages(TESTS_DIR / name), name
    for name in ("test_llm.py", "test_layers.py", "test_fix68_pii_wraps_row.py"):
        assert not drives_pages(TESTS_DIR / name), name
    for line in ("from tests import app_support", "import fakes, app_support", "import app_support as pages"):  # 368 #6
        probe = TESTS_DIR / "_probe_page_marks.py"
        probe.write_text(line + "\n", encoding="utf-8")
        try:
            assert drives_pages(probe), line
        finally:
            probe.unlink()
            drives_pages.cache_clear()
