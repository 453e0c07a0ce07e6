#!/usr/bin/env python3
"""The tree's structural rules that a compiler does not check (#48), read from the sources:

- past the edges (apps/, python/) and the backend registry, no code names a backend: it asks the
  backend's capabilities (revwave/core/backend_capabilities.hpp) instead of comparing with
  Backend::cuda or Backend::cpu. The registry (revwave/driver/backend_registry.hpp and its .cpp) maps
  a Backend to its propagator, engine and capabilities; the enum's own home (revwave/core/choices)
  spells and parses it.
- no library header includes a file of the tests (tests/cudasim names its executor through the
  build, not through a path in a header).

    python3 tests/ci/test_structure.py [--root REPO]
"""
import argparse
import re
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (".cpp", ".hpp", ".cu", ".cuh", ".h")
BACKEND_NAME = re.compile(r"\bBackend::(cuda|cpu)\b")
# Where a backend may be named: the registry and the enum's home.
MAY_NAME_A_BACKEND = {
    "host/driver/include/revwave/driver/backend_registry.hpp",
    "host/driver/src/backend_registry.cpp",
    "host/core/include/revwave/core/choices.hpp",
    "host/core/src/choices.cpp",
}


def library_files(*parts):
    for part in parts:
        for path in sorted((ROOT / part).rglob("*")):
            if path.suffix in SOURCES and path.is_file():
                yield path


def code_lines(path):
    """The file's lines with // comments removed (a comment may name what it explains)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        yield number, line.split("//", 1)[0]


class Structure(unittest.TestCase):
    def test_no_backend_is_named_past_the_edges_and_the_registry(self):
        found = []
        for path in library_files("host", "cuda", "python/src"):
            rel = path.relative_to(ROOT).as_posix()
            if rel in MAY_NAME_A_BACKEND:
                continue
            found += [f"{rel}:{n}: {line.strip()}" for n, line in code_lines(path) if BACKEND_NAME.search(line)]
        self.assertEqual(found, [], "ask backend_capabilities(backend) instead:\n" + "\n".join(found))

    def test_the_registry_still_names_both_backends(self):
        # The control: a rule whose pattern had drifted would pass on anything.
        text = (ROOT / "host/driver/include/revwave/driver/backend_registry.hpp").read_text(encoding="utf-8")
        self.assertEqual(sorted(set(BACKEND_NAME.findall(text))), ["cpu", "cuda"])

    def test_no_library_header_includes_a_test_file(self):
        include = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
        found = []
        for path in library_files("host", "cuda"):
            if "/include/" not in path.as_posix():
                continue
            for n, line in code_lines(path):
                m = include.match(line)
                if m and ("tests/" in m.group(1) or "cudasim" in m.group(1)):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
        self.assertEqual(found, [], "\n".join(found))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, default=ROOT)
    args, rest = parser.parse_known_args()
    ROOT = args.root.resolve()
    unittest.main(argv=[sys.argv[0]] + rest)
