"""The docs' command reference shows every subcommand's --help as the program prints it.

ctest runs this (label cli) with the build's revwave. It builds docs/commands.md alone, with the
docs' own extension (docs/_ext/revwave_cli.py, Sphinx + MyST, the text builder), into a temporary
directory, and checks that the page holds the text of `revwave --help` and of `revwave SUB --help`
for every subcommand `revwave --help` lists (read here, not by the extension), line for line, in a
section of its own, and nothing else in code blocks.

    python3 tests/cli/test_command_reference.py --binary build/revwave
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = ""


def program_help(*args: str) -> str:
    # As the docs run it: argv[0] "revwave", so the usage lines name the program.
    done = subprocess.run(["revwave", *args, "--help"], executable=BINARY, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"revwave {' '.join(args)} --help failed ({done.returncode}): {done.stderr}")
    return done.stdout


def listed_subcommands(top: str) -> list:
    section = re.search(r"^Subcommands:\n((?:  \S.*\n?)+)", top, re.MULTILINE | re.IGNORECASE)
    if section is None:
        raise AssertionError("revwave --help has no 'Subcommands:' section:\n" + top)
    return [line.split()[0] for line in section.group(1).splitlines()]


def sphinx_python() -> str:
    """A Python that has Sphinx and MyST: the project's .venv (as bash .ci/docs uses), this one, Debian's."""
    for candidate in (ROOT / ".venv" / "bin" / "python", pathlib.Path(sys.executable), pathlib.Path("/usr/bin/python3")):
        if candidate.exists() and subprocess.run([str(candidate), "-c", "import sphinx, myst_parser"],
                                                 capture_output=True).returncode == 0:
            return str(candidate)
    raise AssertionError("no Python with Sphinx and MyST (python3-sphinx, python3-myst-parser: bash .ci/setup)")


def build_reference_page(out: pathlib.Path) -> str:
    """docs/commands.md built alone with the docs' extension; the text builder's output."""
    src = out / "src"
    src.mkdir()
    shutil.copy(ROOT / "docs" / "commands.md", src / "commands.md")
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'docs' / '_ext')!r})\n"
        "extensions = ['myst_parser', 'revwave_cli']\n"
        "root_doc = 'commands'\n"
        "myst_heading_anchors = 3\n")
    env = dict(os.environ, REVWAVE_BINARY=BINARY)
    # Links to the site's other pages do not resolve in a one-page build: warnings, not errors here
    # (bash .ci/docs builds the whole site with -W).
    done = subprocess.run([sphinx_python(), "-m", "sphinx", "-b", "text", "-q", str(src), str(out / "text")],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise AssertionError(f"sphinx failed ({done.returncode}):\n{done.stderr}")
    return (out / "text" / "commands.txt").read_text(encoding="utf-8")


def literal_blocks(text: str) -> list:
    """The text builder's literal blocks: runs of lines indented by three spaces (blank lines inside)."""
    blocks, current = [], []
    for line in text.splitlines() + ["end"]:
        if line.startswith("   ") or (current and not line.strip()):
            current.append(line[3:].rstrip())
        else:
            while current and not current[-1]:
                current.pop()
            if current:
                blocks.append("\n".join(current))
            current = []
    return blocks


class CommandReference(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.page = build_reference_page(pathlib.Path(cls.tmp.name))
        cls.blocks = literal_blocks(cls.page)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def expect_help(self, *args):
        expected = "\n".join(line.rstrip() for line in program_help(*args).rstrip().splitlines())
        self.assertIn(expected, self.blocks,
                      f"the reference lacks `revwave {' '.join(args)} --help` as the program prints it")

    def test_the_program_help_is_shown(self):
        self.expect_help()

    def test_every_subcommand_help_is_shown_in_its_own_section(self):
        names = listed_subcommands(program_help())
        self.assertGreaterEqual(len(names), 7, names)
        for name in names:
            with self.subTest(subcommand=name):
                self.expect_help(name)
                # The text builder quotes code in titles: "revwave NAME", underlined.
                title = re.search(rf'(?m)^"?revwave {name}"?\n[=\-*~^]+$', self.page)
                self.assertIsNotNone(title, f"no section titled 'revwave {name}'")

    def test_nothing_else_is_shown(self):
        names = listed_subcommands(program_help())
        helps = {"\n".join(l.rstrip() for l in program_help(*a).rstrip().splitlines()) for a in [()] + [(n,) for n in names]}
        self.assertEqual(len(self.blocks), len(names) + 1, "one block for the program and one per subcommand")
        self.assertEqual(set(self.blocks), helps)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    options, rest = parser.parse_known_args()
    BINARY = os.path.abspath(options.binary)
    unittest.main(argv=[sys.argv[0], *rest])
