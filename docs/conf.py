# The docs site: Sphinx with MyST (Markdown), built by `bash .ci/docs` into build/docs/ with
# warnings as errors and every internal reference checked (-W --keep-going -n). Why Sphinx and not
# mkdocs: docs/contributing.md ("The docs site").
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

# The version is CMakeLists.txt's project() line, the one number revwave has.
_project_line = re.search(r"^project\(revwave VERSION ([0-9]+\.[0-9]+\.[0-9]+)",
                          (ROOT / "CMakeLists.txt").read_text(encoding="utf-8"), re.MULTILINE)
if _project_line is None:
    raise RuntimeError("docs/conf.py: no 'project(revwave VERSION X.Y.Z' line in CMakeLists.txt")
version = release = _project_line.group(1)

project = "revwave"
author = "The revwave developers"
copyright = "the revwave developers (BSD-3-Clause)"

extensions = [
    "myst_parser",          # Markdown pages (Debian's python3-myst-parser)
    "sphinx.ext.autodoc",   # the Python API from the installed package's docstrings
    "revwave_cli",          # the command reference from the built binary's --help (docs/_ext)
    "revwave_api",          # the compiled module's stub, as installed (docs/_ext)
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_ext", "**/__pycache__"]
root_doc = "index"

# [text](page.md#a-heading) links: anchors for headings down to ###, checked like the pages.
myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]

# The package as installed into .venv (pip install .): its docstrings and annotations.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
# The package's own aliases, by name (docs/python.md says what they accept).
autodoc_type_aliases = {"ArrayLike": "ArrayLike", "Points": "Points"}
# numpy and the standard library are not documented here (no intersphinx: the build is offline).
nitpick_ignore_regex = [
    ("py:class", r"(numpy|np|os|pathlib|collections\.abc)\..*"),
    ("py:class", r"(ArrayLike|Points|PathLike|ndarray)"),
]



def _plain_bars(app, what, name, obj, options, lines):
    """The package's docstrings are written for help() as well: |x| there is an absolute value, not
    reStructuredText's substitution. Escape bars outside ``literals`` so that autodoc shows them."""
    for i, line in enumerate(lines):
        parts = re.split(r"(``.*?``)", line)
        lines[i] = "".join(p if p.startswith("``") else p.replace("|", r"\|") for p in parts)


def setup(app):
    app.connect("autodoc-process-docstring", _plain_bars)


html_theme = "furo"
html_title = f"revwave {release}"
html_static_path = []
