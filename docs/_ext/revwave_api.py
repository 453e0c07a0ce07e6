"""The Python API page's stub listing: ``revwave._revwave``'s type stub as installed.

autodoc documents the package's Python functions from their docstrings; the compiled module's
typed surface is its stub (``_revwave.pyi``, written by nanobind's stubgen when the package is
built), which Sphinx cannot read as a module. The directive ``revwave-stub`` shows that file as
installed, so it is the build's own and cannot drift.
"""
from __future__ import annotations

import importlib.util
import pathlib

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

PAGE = "python"


def stub_path() -> pathlib.Path:
    spec = importlib.util.find_spec("revwave")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the Python API pages need the revwave package: .venv/bin/pip install "
                           "--no-build-isolation . (bash .ci/docs does)")
    path = pathlib.Path(list(spec.submodule_search_locations)[0]) / "_revwave.pyi"
    if not path.is_file():
        raise RuntimeError(f"{path} is missing: the installed package has no stub (pip install . writes it)")
    return path


class StubDirective(SphinxDirective):
    has_content = False

    def run(self):
        path = stub_path()
        self.env.note_dependency(str(path))
        block = nodes.literal_block(text=path.read_text(encoding="utf-8"))
        block["language"] = "python"
        return [block]


def _always_reread(app, env, added, changed, removed):
    # autodoc's targets live in the installed package, which may change between builds.
    return [PAGE] if PAGE in env.found_docs else []


def setup(app):
    app.add_directive("revwave-stub", StubDirective)
    app.connect("env-get-outdated", _always_reread)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
