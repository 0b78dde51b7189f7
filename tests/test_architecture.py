"""The package's layers, as CONTRIBUTING.md draws them: imports (including those inside functions)
flow one way, and only the state layer (and the parsed-bank cache) runs SQL."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "prep"
# Lowest first: a module may import from its own layer or any layer before it.
LAYERS = ("foundation", "bank", "grading", "state", "review", "exchange", "cli")


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else "foundation"


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(path: Path, known: set[str]) -> set[str]:
    """The prep modules a file imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("prep"):
            found |= {f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in known}
            found.add(node.module)
    return found & known


def test_imports_flow_one_way_between_layers():
    known = modules()
    upward = []
    for module, path in known.items():
        if module == "prep.__main__":
            continue  # the entry point sits above everything
        for target in imports(path, set(known)):
            if LAYERS.index(layer(target)) > LAYERS.index(layer(module)):
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_no_import_cycles_between_modules():
    known = modules()
    graph = {
        m: {t for t in imports(p, set(known)) if t != m and known[t].name != "__init__.py"}
        for m, p in known.items()
    }
    seen: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> list[str] | None:
        seen[module] = 1
        for target in sorted(graph[module]):
            if seen.get(target) == 1:
                return [*path, module, target]
            if target not in seen and (cycle := visit(target, [*path, module])):
                return cycle
        seen[module] = 2
        return None

    cycles = [c for m in sorted(graph) if m not in seen and (c := visit(m, []))]
    assert cycles == []


def test_only_the_state_layer_and_the_bank_cache_run_sql():
    allowed = {"prep.bank.cache"}
    offenders = [
        module for module, path in modules().items()
        if ".execute(" in path.read_text(encoding="utf-8")
        and layer(module) != "state" and module not in allowed
    ]  # fmt: skip
    assert offenders == []
