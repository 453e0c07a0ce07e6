#!/usr/bin/env python3
"""profiling/gpu_prebuild.sh packs what the build names and what its programs load: with --pack on
this test build, the programs are CMake's ($<TARGET_FILE:revwave> is passed here independently of
the list the script reads), each packed byte for byte, and every library they load that the base
image does not have for certain resolves, with the pack's lib/ first on the loader's path, into
the pack; the tarball holds them and fits a device call (64 MiB).

    python3 tests/ci/test_gpu_prebuild.py --build BUILD --revwave PATH
"""
import argparse
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the script leaves to the machine (its `base`).
BASE = re.compile(r"^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|libgomp|libz"
                  r"|libcuda|libnvidia-[^ ]*)\.so")
ARGS = None


def loaded(program, env=None):
    """(name, resolved path) of every library ldd lists for program."""
    out = subprocess.run(["ldd", str(program)], capture_output=True, text=True, check=True, env=env).stdout
    pairs = []
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 3 and words[1] == "=>":
            pairs.append((words[0], words[2]))
    return pairs


class GpuPrebuild(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dest = Path(cls.tmp.name) / "pre"
        env = {**os.environ, "XZ_OPT": "-0"}  # the fastest level: the test checks contents, not size
        cls.packed = subprocess.run(["bash", str(ROOT / "profiling" / "gpu_prebuild.sh"), "--pack", ARGS.build,
                                  str(cls.dest)], capture_output=True, text=True, env=env, timeout=300)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_packs_the_programs_the_build_names(self):
        self.assertEqual(self.packed.returncode, 0, self.packed.stderr)
        listed = [Path(p) for p in (Path(ARGS.build) / "carried_programs.txt").read_text().split()]
        self.assertIn(Path(ARGS.revwave).resolve(), [p.resolve() for p in listed])
        for p in listed:
            self.assertEqual((self.dest / p.name).read_bytes(), p.read_bytes(), p)

    def test_every_library_beyond_the_base_resolves_into_the_pack(self):
        self.assertEqual(self.packed.returncode, 0, self.packed.stderr)
        lib = self.dest / "lib"
        env = {**os.environ, "LD_LIBRARY_PATH": str(lib)}
        carried = 0
        for program in sorted(p for p in self.dest.iterdir() if p.is_file() and os.access(p, os.X_OK)):
            for name, path in loaded(program, env):
                if BASE.match(name):
                    continue
                self.assertTrue(path.startswith(str(lib) + "/"), f"{program.name} loads {name} from {path}")
                carried += 1
        self.assertGreater(carried, 0)  # revwave links fftw3, zfp, segyio, libpng at least
        needed = (self.dest / "needed.txt").read_text().split()
        self.assertIn("libfftw3.so.3", needed)
        self.assertFalse([n for n in needed if n.endswith(":")], needed)  # ldd's per-program headers

    def test_it_never_replaces_the_build_or_a_folder_that_is_no_pack(self):
        script = str(ROOT / "profiling" / "gpu_prebuild.sh")
        for dest in (ARGS.build, str(Path(ARGS.build).parent)):
            r = subprocess.run(["bash", script, "--pack", ARGS.build, dest], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("would replace the build", r.stderr)
        other = Path(self.tmp.name) / "not_a_pack"
        other.mkdir()
        (other / "keep.txt").write_text("mine")
        r = subprocess.run(["bash", script, "--pack", ARGS.build, str(other)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual((other / "keep.txt").read_text(), "mine")
        self.assertTrue((Path(ARGS.build) / "carried_programs.txt").exists())

    def test_the_tarball_holds_the_pack_and_fits_a_device_call(self):
        self.assertEqual(self.packed.returncode, 0, self.packed.stderr)
        tarball = Path(str(self.dest) + ".tar.xz")
        with tarfile.open(tarball) as t:
            names = set(t.getnames())
        self.assertIn("pre/revwave", names)
        self.assertIn("pre/needed.txt", names)
        self.assertTrue(any(n.startswith("pre/lib/libfftw3") for n in names), sorted(names))
        self.assertLess(tarball.stat().st_size, 64 * 2**20)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--revwave", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest])
