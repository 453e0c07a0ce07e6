"""The command reference, generated from the built program's ``--help`` when the docs are built.

The page ``commands.md`` holds a marker line; at build time it is replaced by one section per
subcommand, each with the text ``revwave SUBCOMMAND --help`` prints. The subcommands are read
from ``revwave --help``, so a new subcommand joins the reference without an edit here, and a
changed option cannot leave the page behind. ``tests/cli/test_command_reference.py`` (ctest,
label cli) builds the page with this extension and checks it against ``--help``.

The binary: ``$REVWAVE_BINARY``, else ``build/revwave`` at the repository's root.
"""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
from typing import List

ROOT = pathlib.Path(__file__).resolve().parents[2]
MARKER = "<!-- revwave-command-reference -->"
PAGE = "commands"


def binary() -> str:
    return os.environ.get("REVWAVE_BINARY", str(ROOT / "build" / "revwave"))


def help_text(program: str, *args: str) -> str:
    """What ``revwave ARGS --help`` prints, run from ``program`` (CLI11 prints help on stdout, exit 0)."""
    if not os.access(program, os.X_OK):
        raise RuntimeError(f"the command reference needs the revwave binary: {program} is missing "
                           "(build it: bash .ci/build, or set REVWAVE_BINARY)")
    # Run as "revwave" (argv[0]), so that the usage lines name the program, not this machine's path.
    done = subprocess.run(["revwave", *args, "--help"], executable=program, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{program} {' '.join(args)} --help failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def subcommands(top_help: str) -> List[str]:
    """The subcommands CLI11 lists under ``SUBCOMMANDS:`` in ``revwave --help``, in its order."""
    names: List[str] = []
    listing = False
    for line in top_help.splitlines():
        if re.match(r"^\s*subcommands:\s*$", line, re.IGNORECASE):
            listing = True
        elif listing and line.strip():
            match = re.match(r"^\s+([a-z][a-z0-9_-]*)(\s|$)", line)
            if not match:
                break
            names.append(match.group(1))
        elif listing and names:
            break
    if not names:
        raise RuntimeError("revwave --help lists no subcommands: the command reference cannot be generated")
    return names


def fenced(text: str) -> str:
    """A fenced code block that no run of backticks in ``text`` can close early."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}\n"


def reference_markdown(program: str) -> str:
    """The generated part of the page: ``revwave --help``, then a section per subcommand."""
    top = help_text(program)
    parts = ["## `revwave`\n", "The program's own options and its subcommands (`revwave --help`):\n", fenced(top)]
    for name in subcommands(top):
        parts.append(f"\n## `revwave {name}`\n")
        parts.append(f"`revwave {name} --help`:\n")
        parts.append(fenced(help_text(program, name)))
    return "\n".join(parts)


def _insert_reference(app, docname: str, source: List[str]) -> None:
    if docname != PAGE:
        return
    if MARKER not in source[0]:
        raise RuntimeError(f"docs/{PAGE}.md lost its marker line {MARKER}: the reference has nowhere to go")
    source[0] = source[0].replace(MARKER, reference_markdown(binary()), 1)


def _always_reread(app, env, added, changed, removed) -> List[str]:
    # The page's text comes from the binary, which Sphinx does not track: read it again every build.
    return [PAGE] if PAGE in env.found_docs else []


def setup(app):
    app.connect("source-read", _insert_reference)
    app.connect("env-get-outdated", _always_reread)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
