import types
from collections.abc import Callable

import semloop


def test_all_public_names_are_exported() -> None:
    # Subpackages appear in dir(semloop) once imported anywhere; they are not exports.
    public = {
        name for name in dir(semloop)
        if not name.startswith("_") and not isinstance(getattr(semloop, name), types.ModuleType)
    }
    assert public <= set(semloop.__all__)
    for name in semloop.__all__:
        assert hasattr(semloop, name), name


def test_alert_exports_its_public_names_only() -> None:
    # The transport's and policy engine's helpers stay in their modules; what is exported
    # is what docs/alerts.md names and what the alerts worker, in another package, uses.
    from semloop import alert

    public = {name for name in dir(alert) if not name.startswith("_")
              and not isinstance(getattr(alert, name), types.ModuleType)}
    assert public - {"annotations"} == set(alert.__all__)  # annotations: the __future__ import
    assert {"retryable", "severity_rank", "run_link", "eligible", "MODES"}.isdisjoint(public)


def test_the_core_library_imports_with_the_standard_library_alone(
    third_party_imports: Callable[[str], list[str]],
) -> None:
    assert third_party_imports("semloop") == []
