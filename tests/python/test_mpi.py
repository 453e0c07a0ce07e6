"""Python at scale: a survey gradient and an inversion started from Python under `mpirun -n 2` spread
their shots over the two processes (the library's MPI runner) and give the CLI's serial bits on both.
Marked mpi (pytest -m mpi; CTest runs it as python.mpi, label mpi, in a build with -DREVWAVE_PYTHON=ON)."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import revwave

pytestmark = pytest.mark.mpi
HERE = pathlib.Path(__file__).resolve().parent


def test_survey_gradient_and_inversion_under_mpirun_give_the_clis_bits(cli, tmp_path):
    mpirun = shutil.which("mpirun") or shutil.which("mpiexec")
    if mpirun is None:
        pytest.skip("no mpirun on PATH (Debian's openmpi-bin)")
    if not revwave._revwave._mpi_compiled():
        pytest.skip("this revwave extension was built without MPI (REVWAVE_MPI=OFF)")
    survey = tmp_path / "survey.sgy"
    # The sponge (and in the script): this is about processes; the C-PML made it 4.5 times as long.
    sponge = ("--boundary", "sponge")
    cli("forward", "--shape", "40,30,20", "--tn", "0.25", "--threads", "1", "--src-grid", "2,2,20", "--rec-grid", "8,6,10",
        "--out", survey)
    cli("gradient", "--shape", "40,30,20", "--velocity", "2000", "--observed", survey, "--aperture", "100", "--threads", "1",
        *sponge, "--out", tmp_path / "g.npy")
    cli("invert", "--shape", "40,30,20", "--velocity", "2000", "--observed", survey, "--vmin", "1500", "--vmax", "2900",
        "--iterations", "2", "--threads", "1", *sponge, "--out-dir", tmp_path / "cli_inv")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1")
    p = subprocess.run([mpirun, "-q", "--oversubscribe", "-n", "2", sys.executable, str(HERE / "mpi_gradient_script.py"),
                        str(tmp_path), str(survey)], capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["processes"] == 2 and summary["size"] == 2
    cli_gradient = np.load(tmp_path / "g.npy")
    cli_model = np.load(tmp_path / "cli_inv" / "model.npy")
    for rank in (0, 1):  # every process returns the root's result
        assert np.load(tmp_path / f"gradient_{rank}.npy").tobytes() == cli_gradient.tobytes(), rank
        assert np.load(tmp_path / f"model_{rank}.npy").tobytes() == cli_model.tobytes(), rank
    assert np.load(tmp_path / "inv" / "model.npy").tobytes() == cli_model.tobytes()
