"""The bubblewrap command lines a Seal becomes (pure: no sandbox needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchsmith.runtime import benchlib


def _pairs(argv: list[str], option: str, width: int = 2) -> list[tuple[str, ...]]:
    return [tuple(argv[i + 1 : i + 1 + width]) for i, a in enumerate(argv) if a == option]


def test_every_seal_isolates_namespaces_capabilities_and_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PWD", "/work/tasks/01-x")
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("BENCHSMITH_RUNS", "/work/runs")
    monkeypatch.delenv("LANG", raising=False)
    env = benchlib.sandbox_env({benchlib.RUN_TOKEN_VARIABLE: "t-1"}, path=["/opt/py/bin"])
    argv = benchlib.seal_argv(benchlib.Seal(env={**env, "PWD": "/leak"}), ["python3", "-V"])
    assert argv[0] == "bwrap" and argv[-3:] == ["--", "python3", "-V"]
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent"):
        assert flag in argv
    assert "--new-session" in argv and "--share-net" not in argv
    assert ("ALL",) in _pairs(argv, "--cap-drop", 1)
    assert argv.index("--clearenv") < argv.index("--setenv")
    assert dict(_pairs(argv, "--setenv")) == {  # type: ignore[arg-type]
        "BENCHLIB_RUN_TOKEN": "t-1",
        "HOME": benchlib.SANDBOX_HOME,
        "LC_ALL": "C.UTF-8",
        "PATH": "/opt/py/bin:/usr/local/bin:/usr/bin:/bin",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "TMPDIR": "/tmp",
        "TZ": "Pacific/Kiritimati",
    }


def test_the_minimal_view_binds_only_the_system_and_what_it_is_given(tmp_path: Path) -> None:
    binds = (
        benchlib.Bind(tmp_path / "python"),
        benchlib.Bind(tmp_path / "run", "/workspace", True),
    )
    seal = benchlib.Seal(binds=binds, cwd="/workspace", limits=benchlib.Limits(tmp_bytes=1 << 20))
    argv = benchlib.seal_argv(seal, ["true"])
    sources = [s for s, _ in _pairs(argv, "--ro-bind") + _pairs(argv, "--bind")]
    system = {"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}
    assert set(sources) - system == {str(tmp_path / "python"), str(tmp_path / "run")}
    assert ("/", "/") not in _pairs(argv, "--ro-bind")
    assert _pairs(argv, "--bind") == [(str(tmp_path / "run"), "/workspace")]
    assert tuple(argv[argv.index("--size") :][:4]) == ("--size", "1048576", "--tmpfs", "/tmp")
    assert ("/",) in _pairs(argv, "--remount-ro", 1)
    assert _pairs(argv, "--chdir", 1) == [("/workspace",)]
    for folder in ("/bin", "/lib"):
        if Path(folder).is_symlink():
            assert (str(Path(folder).readlink()), folder) in _pairs(argv, "--symlink")


def test_the_system_view_shows_the_host_read_only_minus_hidden_paths() -> None:
    seal = benchlib.Seal(view="system", hidden=("/root", "/home"), network=True)
    argv = benchlib.seal_argv(seal, ["true"])
    assert ("/", "/") in _pairs(argv, "--ro-bind") and "--share-net" in argv
    assert _pairs(argv, "--tmpfs", 1) == [("/tmp",), ("/root",), ("/home",)]
    with pytest.raises(ValueError, match="unknown sandbox view"):
        benchlib.seal_argv(benchlib.Seal(view="open"), ["true"])


def test_a_failed_probe_names_the_cause_and_the_fix() -> None:
    reason = benchlib._explain("bwrap: setting up uid map: Permission denied", 1)
    assert reason.startswith("bwrap: setting up uid map: Permission denied — ")
    assert "sysctl kernel.unprivileged_userns_clone=1" in reason
    assert benchlib._explain("bwrap: Can't mount proc", 1) == (
        "bwrap failed (exit status 1): bwrap: Can't mount proc"
    )


def test_an_interpreter_in_the_system_folders_needs_no_bind() -> None:
    system = benchlib.Interpreter("/usr/bin/python3.11", "/usr")
    assert system.binds() == ()
    prefix = "/root/.pyenv/versions/3.12.1"
    pyenv = benchlib.Interpreter(f"{prefix}/bin/python3.12", prefix)
    assert pyenv.binds() == (benchlib.Bind(Path(prefix)),)
