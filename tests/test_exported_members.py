import semloop


def test_all_public_names_are_exported() -> None:
    public = {name for name in dir(semloop) if not name.startswith("_")}
    submodules = {"cli", "events", "judge", "trace", "lexical", "semantic"}
    assert public - submodules <= set(semloop.__all__)
    for name in semloop.__all__:
        assert hasattr(semloop, name), name
