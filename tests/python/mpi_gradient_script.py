"""Run under `mpiexec -n K python mpi_gradient_script.py OUT SURVEY` by test_mpi.py: a survey gradient and a
short inversion started from Python; every process saves what it got (OUT/gradient_RANK.npy,
OUT/model_RANK.npy) and rank 0 the summary."""
import json
import sys

import numpy as np

import revwave

out, survey = sys.argv[1], sys.argv[2]
rank = revwave._revwave._mpi_rank()
# The sponge, as test_mpi.py's CLI runs: the test is about processes, not the boundary.
g = revwave.gradient(velocity=2000.0, shape=(40, 30, 20), observed=survey, aperture=100, threads=1, boundary="sponge")
np.save(f"{out}/gradient_{rank}.npy", g.gradient)
# Every process names the output folder, as under the CLI; rank 0 writes.
inv = revwave.invert(velocity=2000.0, shape=(40, 30, 20), observed=survey, vmin=1500, vmax=2900, iterations=2,
                     threads=1, boundary="sponge", out_dir=f"{out}/inv")
np.save(f"{out}/model_{rank}.npy", inv.model)
if rank == 0:
    with open(f"{out}/summary.json", "w") as f:
        json.dump({"objective": g.objective, "processes": g.stats["processes"], "size": revwave._revwave._mpi_size()}, f)
